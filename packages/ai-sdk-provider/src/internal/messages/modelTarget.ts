import { specOf } from '../specVersion.js';
import type { AiSdkSpecificationVersion } from '../../languageModel.js';

/** What the conversion helpers read of a model: its identity and specification version. */
export interface ModelTarget {
  readonly provider: string;
  readonly modelId: string;
  readonly specificationVersion?: unknown;
}

/** The target's spec (a model object without one reads as v2; an unknown one as v2 too, for the helpers). */
export function targetSpec(model: ModelTarget): AiSdkSpecificationVersion {
  return specOf(model) ?? 'v2';
}

export function targetIdentifier(model: ModelTarget): string {
  return `${model.provider}:${model.modelId}`;
}

/** A record in the loose sense the reference's helpers use (arrays count). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** `namespace.name` for a namespaced tool, else its name (the wire name the AI SDK sees). */
export function qualifiedName(tool: { name: string; namespace?: unknown }): string {
  return typeof tool.namespace === 'string' && tool.namespace !== '' && tool.name !== '' ? `${tool.namespace}.${tool.name}` : tool.name;
}
