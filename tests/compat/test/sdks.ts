import * as baton from '@baton/agents';
import * as batonTesting from '@baton/agents/testing';
import * as reference from '@openai/agents';
import * as referenceTesting from '@openai/agents/testing';

/**
 * The two SDKs a compatibility test runs the same program on. Programs are written once against
 * the reference's names (the drop-in promise) and receive the SDK module as an argument.
 */
export type Sdk = typeof reference;
export type SdkTesting = typeof referenceTesting;

export interface SdkUnderTest {
  readonly name: 'reference' | 'baton';
  readonly sdk: Sdk;
  readonly testing: SdkTesting;
}

export const sdks: readonly SdkUnderTest[] = [
  { name: 'reference', sdk: reference, testing: referenceTesting },
  { name: 'baton', sdk: baton as unknown as Sdk, testing: batonTesting as unknown as SdkTesting },
];

/** Runs `program` on both SDKs and returns both outcomes, reference first. */
export async function onBoth<T>(program: (under: SdkUnderTest) => Promise<T>): Promise<{ reference: T; baton: T }> {
  const [referenceOutcome, batonOutcome] = [await program(sdks[0]!), await program(sdks[1]!)];
  return { reference: referenceOutcome, baton: batonOutcome };
}

/** Settles a promise into a plain description of its outcome, for comparing both SDKs. */
export async function outcomeOf<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown; name: string }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error, name: (error as Error)?.constructor?.name ?? typeof error };
  }
}
