import {
  UserError,
  type HostedShellTool,
  type LocalShellTool,
  type Shell,
  type ShellApprovalFunction,
  type ShellOnApprovalFunction,
  type ShellToolContainerNetworkPolicy,
  type ShellToolContainerSkill,
  type ShellToolEnvironment,
  type ShellToolHostedEnvironment,
  type ShellToolLocalEnvironment,
  type ShellCallItem,
  type ToolAllowedCallers,
  type ToolInputGuardrail,
  type ToolOutputGuardrail,
} from '@baton/types';
import { approvalPredicate } from './internal/approvalPredicate.js';
import { checkedAllowedCallers } from './internal/allowedCallers.js';
import { checkedToolGuardrails } from './internal/toolGuardrailLists.js';

/** A shell tool whose commands run on the host: `environment` is always set (`{ type: 'local' }` by default). */
export type NormalizedLocalShellTool = Omit<LocalShellTool, 'environment'> & { environment: ShellToolLocalEnvironment };

export interface LocalShellToolOptions {
  /** The name the model calls the tool by (`shell` by default). */
  name?: string;
  environment?: ShellToolLocalEnvironment;
  /** Runs the commands (`LocalShell` from `@baton/local-tools`, or your own). */
  shell: Shell;
  /** `true`, or a function of the action: the run pauses until a human approves the commands. */
  needsApproval?: boolean | ShellApprovalFunction;
  /** Decides a needed approval in code instead of pausing. */
  onApproval?: ShellOnApprovalFunction;
  allowedCallers?: ToolAllowedCallers;
  /** Checks of each call before its commands run (after its approval); `rejectContent` answers the model instead. Baton only. */
  inputGuardrails?: ToolInputGuardrail<any, ShellCallItem>[];
  /** Checks of each call's outputs before the model sees them; `rejectContent` replaces them. Baton only. */
  outputGuardrails?: ToolOutputGuardrail<any, ShellCallItem>[];
}

export interface HostedShellToolOptions {
  name?: string;
  /** OpenAI runs the commands in a container (`container_auto` or `container_reference`). */
  environment: ShellToolHostedEnvironment;
  shell?: never;
  needsApproval?: never;
  onApproval?: never;
  allowedCallers?: ToolAllowedCallers;
  inputGuardrails?: never;
  outputGuardrails?: never;
}

/**
 * The shell tool (the reference's `shellTool`): the model sends commands, the host's `Shell` runs
 * them and the model gets each command's stdout, stderr and outcome. With `needsApproval` a run
 * pauses on each call (the approval item's `rawItem.action.commands` are the commands) until a
 * human approves or rejects it; a rejection tells the model, nothing runs. A hosted environment
 * runs the commands in OpenAI's container instead (no shell, no approvals here).
 */
export function shellTool(options: LocalShellToolOptions): NormalizedLocalShellTool;
export function shellTool(options: HostedShellToolOptions): HostedShellTool;
export function shellTool(options: LocalShellToolOptions | HostedShellToolOptions): NormalizedLocalShellTool | HostedShellTool {
  const environment = normalizeEnvironment(options.environment);
  const name = options.name ?? 'shell';
  const checkedCallers = checkedAllowedCallers(options.allowedCallers, name);
  const allowedCallers = checkedCallers ? { allowedCallers: checkedCallers } : {};
  const needsApproval = approvalPredicate<ShellApprovalFunction>(options.needsApproval, 'shellTool');
  if (environment.type === 'local') {
    const shell = options.shell;
    if (!shell) throw new UserError('shellTool with local environment requires a shell implementation.');
    if (typeof shell.run !== 'function') throw new UserError('shellTool: `shell` must have a run(action) method (a Shell such as LocalShell).');
    const guardrails = checkedToolGuardrails(`shellTool "${name}"`, options);
    return { type: 'shell', name, environment, shell, needsApproval, onApproval: options.onApproval, ...allowedCallers, ...guardrails };
  }
  if (options.shell !== undefined) throw new UserError('shellTool with hosted environment does not accept a shell implementation.');
  if (options.needsApproval !== undefined || options.onApproval !== undefined) {
    throw new UserError('shellTool with hosted environment does not support needsApproval or onApproval.');
  }
  if (options.inputGuardrails !== undefined || options.outputGuardrails !== undefined) {
    throw new UserError('shellTool with hosted environment does not support inputGuardrails or outputGuardrails (OpenAI runs its commands).');
  }
  return { type: 'shell', name, environment, needsApproval, ...allowedCallers };
}

function normalizeEnvironment(environment: ShellToolEnvironment | undefined): ShellToolEnvironment {
  if (environment === undefined) return { type: 'local' };
  if (environment.type === 'local') return environment;
  if (environment.type === 'container_auto') {
    const normalized: ShellToolEnvironment = { type: 'container_auto' };
    if (environment.fileIds !== undefined) normalized.fileIds = environment.fileIds;
    if (environment.memoryLimit !== undefined) normalized.memoryLimit = environment.memoryLimit;
    const networkPolicy = normalizeNetworkPolicy(environment.networkPolicy);
    if (networkPolicy !== undefined) normalized.networkPolicy = networkPolicy;
    if (environment.skills !== undefined) normalized.skills = environment.skills.map(normalizeSkill);
    return normalized;
  }
  if (environment.type === 'container_reference') {
    if (!environment.containerId) throw new UserError('shellTool with container_reference environment requires a containerId.');
    return { type: 'container_reference', containerId: environment.containerId };
  }
  throw new UserError(`shellTool: unknown environment type "${String((environment as { type?: unknown }).type)}" (expected local, container_auto or container_reference).`);
}

function normalizeNetworkPolicy(policy: ShellToolContainerNetworkPolicy | undefined): ShellToolContainerNetworkPolicy | undefined {
  if (!policy || policy.type === 'disabled') return policy;
  return { type: 'allowlist', allowedDomains: policy.allowedDomains, ...(policy.domainSecrets !== undefined ? { domainSecrets: policy.domainSecrets } : {}) };
}

function normalizeSkill(skill: ShellToolContainerSkill): ShellToolContainerSkill {
  if (skill.type === 'skill_reference') {
    if (!skill.skillId) throw new UserError('shellTool skill_reference requires a skillId.');
    return skill;
  }
  const source = (skill as { source?: unknown }).source;
  if (!source || typeof source !== 'object') throw new UserError('shellTool inline skill source is required.');
  const { mediaType, data } = source as { mediaType?: unknown; data?: unknown };
  if (mediaType !== 'application/zip') throw new UserError('shellTool inline skill source.mediaType must be application/zip.');
  return { type: 'inline', name: skill.name, description: skill.description, source: { type: 'base64', data: data as string, mediaType } };
}
