import { platforms } from '../../../adapters/index.js';
import type { PlatformName } from '../../app/config-schema.js';
import type { CredentialCheck, PlatformBlock, PlatformSetup } from '../../core/platform-descriptor.js';

export type { OwnerField, PlatformField } from '../../core/platform-descriptor.js';

/** A platform's setup section: its descriptor's questions, with its name, title and live check. */
export interface PlatformSpec extends PlatformSetup {
  /** The config name. */
  readonly name: PlatformName;
  /** For messages ("Telegram"). */
  readonly title: string;
  /** The live check `hermes doctor` runs too (loaded when the section runs). */
  readonly check: () => Promise<CredentialCheck<PlatformBlock>>;
}

/** The setup section of every platform, in adapters/index.ts order (descriptors load no SDK: `hermes status` loads this file too). */
export const platformSpecs: readonly PlatformSpec[] = platforms.flatMap((platform) =>
  platform.setup === undefined
    ? []
    : [
        {
          name: platform.name,
          title: platform.title,
          ...platform.setup,
          // The section hands the check the block it just wrote and validated with the same descriptor's schema.
          check: platform.credentialCheck as () => Promise<CredentialCheck<PlatformBlock>>,
        },
      ],
);

/** The setup section of one platform; undefined for a name no platform has. */
export function platformSpec(params: { name: string }): PlatformSpec | undefined {
  return platformSpecs.find((spec) => spec.name === params.name);
}
