/**
 * A property of a Proxy's target as its `get` trap hands it on: a method bound to the target (so `this` inside it is
 * the real object, not the proxy), any other value as it is.
 */
export function forwardedProperty(params: { target: object; prop: string | symbol }): unknown {
  const value: unknown = Reflect.get(params.target, params.prop, params.target);
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(params.target) : value;
}
