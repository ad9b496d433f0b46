import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ToolCallRequest, ToolRegistry } from '../tools/registry.js';
import type { ToolContext } from '../tools/tool.js';
import { INTERRUPTED_RESULT, planBatches, runBatches } from '../tools/scheduler.js';
import { IterationBudget } from './budget.js';
import { FailureLedger } from './escalation.js';
import { toOpenAIMessages, unansweredToolCalls, type ChatMessage } from './messages.js';
import { ModelRoute, type RouteTurn } from './route/route.js';
import { toolCallsFor } from './tool-calls.js';
import type { AgentOptions, AgentResult, AgentRunParams } from './types.js';

/** Result for a tool call left unanswered by an earlier turn that ended abnormally. */
const STALE_CALL_RESULT = 'Interrupted: this tool call did not run because the previous turn ended before it could.';

/** Mutable state of one turn. */
interface Turn {
  params: AgentRunParams;
  messages: ChatMessage[];
  text: string;
  modelCalls: number;
  /** Which model of the route answers this turn. */
  route: RouteTurn;
  /** The system prompt sent now (a compression into a new session rebuilds it). */
  systemPrompt: string;
  /** Whether a context-overflow error was already answered by compressing and retrying. */
  overflowRetried: boolean;
  /** After an attempt that left the estimate above the threshold: the estimate the request must pass before the next one. */
  compressAgainAbove: number;
  /** The tool context tools run with now (a compression into a new session gives a new one). */
  toolContext: Omit<ToolContext, 'signal'>;
  /** The tools of this turn: the run's own (a session's MCP tools besides the agent's) or the agent's. */
  registry: ToolRegistry;
  /** The same tool failing the same way: counted, and answered with the escalation's lines. */
  failures: FailureLedger;
}

/** The agent loop: call the model, run the tools it asks for, repeat until it answers or must stop. */
export class AIAgent {
  private readonly options: AgentOptions;
  /** The models and keys calls go to. */
  readonly route: ModelRoute;

  constructor(options: AgentOptions) {
    this.options = options;
    if (options.route) this.route = options.route;
    else if (options.client) {
      this.route = ModelRoute.fromClient({
        client: options.client,
        model: options.model,
        clock: options.clock,
        maxRetries: options.maxRetries,
        idleTimeoutMs: options.requestTimeoutMs,
        logger: options.logger,
      });
    } else throw new TypeError('AIAgent needs a client or a route');
  }

  /** The tools this agent offers the model. */
  get registry(): ToolRegistry {
    return this.options.registry;
  }

  /** An agent like this one on the same model route (keys, fallbacks) with other tools and budget: a delegate_task child. */
  child(params: { registry: ToolRegistry; maxIterations: number }): AIAgent {
    return new AIAgent({ ...this.options, route: this.route, registry: params.registry, maxIterations: params.maxIterations });
  }

  /** Runs one turn; never throws for model or tool failures (they end the turn with an outcome). */
  async run(params: AgentRunParams): Promise<AgentResult> {
    const registry = params.registry ?? this.options.registry;
    // The owner can be asked where clarify is offered and wired (not in system-started turns or children).
    const failures = new FailureLedger({ askAfter: this.options.escalateAfterFailures ?? 3, canAsk: registry.get('clarify') !== undefined && params.toolContext.clarify !== undefined });
    const turn: Turn = { params, messages: [...params.history], text: '', modelCalls: 0, route: this.route.startTurn({ model: params.model }), systemPrompt: params.systemPrompt, overflowRetried: false, compressAgainAbove: 0, toolContext: params.toolContext, registry, failures };
    const budget = new IterationBudget({ max: this.options.maxIterations });
    this.answerAll({ turn, content: STALE_CALL_RESULT });
    const images = params.userImages ?? [];
    this.add({ turn, message: { role: 'user', content: params.userText, ...(images.length > 0 ? { images } : {}) } });
    for (;;) {
      if (params.signal.aborted) return this.interrupted({ turn });
      if (!budget.tryConsume()) {
        const note =
          `I stopped after ${turn.modelCalls} model calls (the iteration budget). ` +
          'What I did so far is saved; send another message to continue.';
        return { outcome: 'budget_exhausted', text: turn.text, note: joinNotes({ notes: [turn.route.note(), note] }) ?? note, modelCalls: turn.modelCalls };
      }
      this.addSteered({ turn });
      turn.modelCalls += 1;
      const tooLarge = this.fixedPartTooLarge({ turn });
      if (tooLarge !== undefined) return tooLarge;
      await this.compressIfLarge({ turn });
      let step = await this.step({ turn });
      if ('overflow' in step) {
        // The model said the context is too long: compress (forced) and retry this call once.
        turn.overflowRetried = true;
        await this.compressNow({ turn, force: true });
        step = await this.step({ turn });
      }
      if ('overflow' in step) return step.overflow;
      if ('done' in step) return step.done;
      const only = step.ranTools.length === 1 ? step.ranTools[0] : undefined;
      if (only !== undefined && turn.registry.get(only.name)?.freeRound === true) budget.refund();
      if (params.signal.aborted) return this.interrupted({ turn });
    }
  }

  /** One model call and its tools: either the turn ends here, or it lists the tool calls that ran. */
  /** Compresses before a model call when the request's estimate passes the hook's threshold. */
  private async compressIfLarge(params: { turn: Turn }): Promise<void> {
    const { turn } = params;
    const hook = turn.params.compress;
    if (hook === undefined) return;
    const within = Math.max(hook.thresholdTokens, turn.compressAgainAbove);
    const estimate = this.estimatePromptTokens({ systemPrompt: turn.systemPrompt, history: turn.messages, within, registry: turn.registry });
    if (estimate === undefined || estimate <= within) return;
    await this.compressNow({ turn, force: false });
    // An attempt that could not get under the threshold (the fixed part alone nearly fills it) is not repeated before
    // every model call: only once the request grew again by a tenth of the threshold.
    const after = this.estimatePromptTokens({ systemPrompt: turn.systemPrompt, history: turn.messages, within: hook.thresholdTokens, registry: turn.registry }) ?? 0;
    turn.compressAgainAbove = after > hook.thresholdTokens ? after + Math.max(1, Math.floor(hook.thresholdTokens / 10)) : 0;
  }

  /**
   * The turn's end when the system prompt and tool schemas alone do not fit the model's context (no history can be
   * cut to help, so no model call or compression is tried); undefined when they fit or nothing is known.
   */
  private fixedPartTooLarge(params: { turn: Turn }): AgentResult | undefined {
    const { turn } = params;
    const hook = turn.params.compress;
    if (hook === undefined) return undefined;
    const fixed = this.estimatePromptTokens({ systemPrompt: turn.systemPrompt, history: [], within: hook.contextTokens, registry: turn.registry });
    if (fixed === undefined || fixed < hook.contextTokens) return undefined;
    const n = (value: number): string => value.toLocaleString('en-US');
    const note =
      `I cannot answer with this model: the system prompt and tool definitions alone take ~${n(fixed)} tokens, ` +
      `more than its context length (${n(hook.contextTokens)} tokens). Use a model with a longer context, or set ` +
      'model.context_length if the model allows more than that.';
    this.options.logger?.warn({ fixedTokens: fixed, contextTokens: hook.contextTokens }, 'the fixed part of the request does not fit the context length');
    return { outcome: 'error', text: turn.text, note, modelCalls: turn.modelCalls - 1 };
  }

  /** Runs the hook and goes on with what it gave back. */
  private async compressNow(params: { turn: Turn; force: boolean }): Promise<void> {
    const { turn } = params;
    const hook = turn.params.compress;
    if (hook === undefined) return;
    const compressed = await hook.run({ messages: turn.messages, systemPrompt: turn.systemPrompt, force: params.force, signal: turn.params.signal });
    if (compressed === undefined) return;
    turn.messages = [...compressed.messages];
    turn.systemPrompt = compressed.systemPrompt;
    if (compressed.toolContext !== undefined) turn.toolContext = compressed.toolContext;
  }

  private async step(params: { turn: Turn }): Promise<{ done: AgentResult } | { ranTools: ToolCallRequest[] } | { overflow: AgentResult }> {
    const { turn } = params;
    const { signal } = turn.params;
    let roundHasText = false;
    const request = this.request({ turn });
    const outcome = await turn.route.call({
      request,
      signal,
      onText: (delta) => {
        if (!roundHasText && turn.text !== '') this.emit({ turn, delta: '\n\n' });
        roundHasText = true;
        this.emit({ turn, delta });
      },
      onAttempt: turn.params.onModelCall,
    });
    if (outcome.kind !== 'ok') {
      if (outcome.partialText !== '') this.add({ turn, message: { role: 'assistant', content: outcome.partialText } });
      if (outcome.kind === 'aborted') return { done: this.interrupted({ turn }) };
      const note = joinNotes({ notes: [turn.route.note(), outcome.userMessage] });
      const canRetry = outcome.error?.shouldCompress === true && outcome.partialText === '' && !turn.overflowRetried && turn.params.compress !== undefined;
      if (canRetry) return { overflow: { outcome: 'error', text: turn.text, note, modelCalls: turn.modelCalls } };
      return { done: { outcome: 'error', text: turn.text, note, modelCalls: turn.modelCalls } };
    }
    const { reply } = outcome;
    turn.params.onUsage?.({ model: outcome.model, ...reply.usage });
    this.options.tokenMeter?.observe({ request: { ...request, model: outcome.model }, reportedPromptTokens: reply.usage.promptTokens });
    if (reply.toolCalls.length === 0) {
      this.add({ turn, message: { role: 'assistant', content: reply.content } });
      const note = joinNotes({ notes: [turn.route.note(), finalNote({ turn, finishReason: reply.finishReason })] });
      return { done: { outcome: 'final', text: turn.text, note, modelCalls: turn.modelCalls } };
    }
    const content = reply.content === '' ? null : reply.content;
    this.add({ turn, message: { role: 'assistant', content, tool_calls: reply.toolCalls } });
    const calls = reply.toolCalls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
    await this.runTools({ turn, calls });
    return { ranTools: calls };
  }

  private async runTools(params: { turn: Turn; calls: ToolCallRequest[] }): Promise<void> {
    const { turn } = params;
    const { registry } = turn;
    const batches = planBatches({
      calls: params.calls,
      registry,
      workspace: turn.toolContext.workspace,
      maxParallel: this.options.maxParallel,
    });
    this.options.logger?.debug({ calls: params.calls.map((c) => c.name), batches: batches.length }, 'running tools');
    // execute_code's scripts (a tool with `callsTools`) call the same tools, with the same context, scrubbed the same way.
    // Only an agent that offers such a tool, at depth 0, gets them: a delegate_task child never has inner tool calls in its context.
    const codeAllowed = registry.list().some((tool) => tool.callsTools === true) && (turn.toolContext.depth ?? 0) === 0;
    const toolCalls = codeAllowed ? toolCallsFor({ registry, ctx: turn.toolContext, scrub: this.options.scrub }) : undefined;
    await runBatches({
      batches,
      registry,
      ctx: toolCalls === undefined ? turn.toolContext : { ...turn.toolContext, toolCalls },
      signal: turn.params.signal,
      onResult: ({ call, result }) => {
        // The model never sees the profile's secrets, even when a tool read them (e.g. `cat .env`).
        const scrubbed = this.options.scrub ? this.options.scrub(result.content) : result.content;
        // The same failure again: told to change approach, then to stop and ask the owner.
        // (Calls cut short by an interrupt are no failures of the tool.)
        const escalation = turn.params.signal.aborted ? undefined : turn.failures.note({ name: call.name, args: call.arguments, result, tool: registry.get(call.name) });
        const content = escalation === undefined ? scrubbed : `${scrubbed}\n${escalation}`;
        this.add({ turn, message: { role: 'tool', tool_call_id: call.id, name: call.name, content } });
      },
    });
  }

  /**
   * Estimated prompt tokens of a model call with this system prompt and history (tools included), corrected by
   * the usage reported so far; undefined when the agent has no token meter. `within`: the limit the caller compares
   * against; far under it the figure is the meter's cheap estimate (see TokenMeter.estimate), exact near or past it.
   */
  estimatePromptTokens(params: { systemPrompt: string; history: readonly ChatMessage[]; within?: number; registry?: ToolRegistry | undefined }): number | undefined {
    const meter = this.options.tokenMeter;
    if (meter === undefined) return undefined;
    const request = this.buildRequest({ systemPrompt: params.systemPrompt, messages: params.history, perCall: '', registry: params.registry ?? this.options.registry });
    return meter.estimate({ request: { ...request, model: this.options.model }, ...(params.within !== undefined ? { within: params.within } : {}) }).tokens;
  }

  /** Estimated prompt tokens one message adds to a request (corrected like the whole request); 0 without a meter. */
  messageTokens(params: { message: ChatMessage }): number {
    const meter = this.options.tokenMeter;
    if (meter === undefined) return 0;
    const { model } = this.options;
    const one = meter.estimate({ request: { model, messages: toOpenAIMessages({ messages: [params.message] }) } }).tokens;
    const none = meter.estimate({ request: { model, messages: [] } }).tokens;
    return Math.max(0, one - none);
  }

  private request(params: { turn: Turn }): Omit<ChatCompletionCreateParamsStreaming, 'stream' | 'model'> {
    const { ephemeral } = params.turn.params;
    return this.buildRequest({ systemPrompt: params.turn.systemPrompt, messages: params.turn.messages, perCall: ephemeral?.() ?? '', registry: params.turn.registry });
  }

  private buildRequest(params: { systemPrompt: string; messages: readonly ChatMessage[]; perCall: string; registry: ToolRegistry }): Omit<ChatCompletionCreateParamsStreaming, 'stream' | 'model'> {
    const { options } = this;
    const { systemPrompt, perCall } = params;
    const tools = params.registry.toOpenAITools();
    const messages = toOpenAIMessages({
      messages: [
        { role: 'system', content: systemPrompt },
        ...params.messages,
        ...(perCall !== '' ? [{ role: 'system', content: perCall } as const] : []),
      ],
    });
    return {
      messages,
      ...(tools.length > 0 ? { tools } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
    };
  }

  private interrupted(params: { turn: Turn }): AgentResult {
    this.answerAll({ turn: params.turn, content: INTERRUPTED_RESULT });
    return { outcome: 'interrupted', text: params.turn.text, modelCalls: params.turn.modelCalls };
  }

  /** Gives every unanswered tool call of the last assistant message a synthetic error result. */
  private answerAll(params: { turn: Turn; content: string }): void {
    for (const call of unansweredToolCalls({ messages: params.turn.messages })) {
      this.add({
        turn: params.turn,
        message: { role: 'tool', tool_call_id: call.id, name: call.function.name, content: params.content },
      });
    }
  }

  /** Adds the text steered into the turn since the last model call, as user messages (tool results are all in by now). */
  private addSteered(params: { turn: Turn }): void {
    for (const text of params.turn.params.steering?.() ?? []) this.add({ turn: params.turn, message: { role: 'user', content: text } });
  }

  private add(params: { turn: Turn; message: ChatMessage }): void {
    params.turn.messages.push(params.message);
    params.turn.params.onMessage(params.message);
  }

  private emit(params: { turn: Turn; delta: string }): void {
    params.turn.text += params.delta;
    params.turn.params.onTextDelta(params.delta);
  }
}

/** Notes on one line each, or undefined when there are none. */
function joinNotes(params: { notes: readonly (string | undefined)[] }): string | undefined {
  const kept = params.notes.filter((n): n is string => n !== undefined && n !== '');
  return kept.length > 0 ? kept.join('\n') : undefined;
}

/** A note for replies that ended oddly: cut off at max_tokens, stopped by a content filter, or empty. */
function finalNote(params: { turn: Turn; finishReason: string | null }): string | undefined {
  if (params.finishReason === 'length') {
    return 'The reply hit the length limit (model.max_tokens) and may be cut off; ask me to continue.';
  }
  if (params.finishReason === 'content_filter') {
    return "The model provider's content filter stopped the reply; rephrase the message and try again.";
  }
  if (params.turn.text === '') return 'The model returned an empty reply; try rephrasing or send another message.';
  return undefined;
}
