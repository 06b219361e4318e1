/**
 * The local tools' contracts: the shell, apply-patch and computer tools as a run sees them
 * (`shellTool()`, `applyPatchTool()`, `computerTool()` in `@baton/core` make them). The shapes are
 * the reference SDK's, so a tool literal written for `@openai/agents` fits.
 */
import type { RunContextContract } from './runContext.js';
import type { RunToolApprovalItem } from './runItem.js';
import type { ShellToolHostedEnvironment, ShellToolLocalEnvironment, ToolAllowedCallers } from './model.js';
import type { Shell, ShellAction } from './shell.js';
import type { ApplyPatchOperation, Editor } from './editor.js';
import type { Computer, ComputerAction } from './computer.js';
import type { ApplyPatchCallItem, ApplyPatchCallResultItem, ComputerCallResultItem, ComputerUseCallItem, ShellCallItem } from './protocol.js';
import type { ToolOutputCustomDataExtractor } from './toolOutputCustomData.js';
import type { ToolInputGuardrail, ToolOutputGuardrail } from './guardrail.js';

/** Whether a shell call needs a human's approval (the reference's `ShellApprovalFunction`). */
export type ShellApprovalFunction = (runContext: RunContextContract<any>, action: ShellAction, callId?: string) => Promise<boolean>;

/** Decides a shell call's approval in code when one is needed (instead of pausing the run). */
export type ShellOnApprovalFunction = (runContext: RunContextContract<any>, approvalItem: RunToolApprovalItem) => Promise<{ approve: boolean; reason?: string }>;

interface ShellToolBase {
  type: 'shell';
  /** The name the model calls the tool by (`shell` by default). */
  name: string;
  needsApproval: ShellApprovalFunction;
  onApproval?: ShellOnApprovalFunction | undefined;
  /** Responses API only: who may call it (`direct`, `programmatic`). */
  allowedCallers?: ToolAllowedCallers;
}

/** A shell tool whose commands the host runs with its `Shell` (`environment` may be left out: local). */
export interface LocalShellTool extends ShellToolBase {
  environment?: ShellToolLocalEnvironment;
  shell: Shell;
  /** Baton: checks of each call before its commands run (the guardrail's `toolCall` is the call); the reference has none on local tools. */
  inputGuardrails?: ToolInputGuardrail<any, ShellCallItem>[];
  /** Baton: checks of each call's outputs (`output`: the `ShellCallOutputContent[]`) before the model sees them. */
  outputGuardrails?: ToolOutputGuardrail<any, ShellCallItem>[];
}

/** A shell tool whose commands OpenAI runs in a container: the calls never reach the host. */
export interface HostedShellTool extends ShellToolBase {
  environment: ShellToolHostedEnvironment;
  shell?: never;
}

/** The shell tool (`shellTool()`), as the reference types it. */
export type ShellTool = LocalShellTool | HostedShellTool;

/** Whether an apply-patch operation needs a human's approval (the reference's `ApplyPatchApprovalFunction`). */
export type ApplyPatchApprovalFunction = (runContext: RunContextContract<any>, operation: ApplyPatchOperation, callId?: string) => Promise<boolean>;

/** Decides an apply-patch call's approval in code when one is needed (instead of pausing the run). */
export type ApplyPatchOnApprovalFunction = (runContext: RunContextContract<any>, approvalItem: RunToolApprovalItem) => Promise<{ approve: boolean; reason?: string }>;

/** The apply-patch tool (`applyPatchTool()`), as the reference types it. */
export interface ApplyPatchTool {
  type: 'apply_patch';
  /** The name the model calls the tool by (`apply_patch` by default). */
  name: string;
  editor: Editor;
  needsApproval: ApplyPatchApprovalFunction;
  onApproval?: ApplyPatchOnApprovalFunction | undefined;
  /** Responses API only: who may call it (`direct`, `programmatic`). */
  allowedCallers?: ToolAllowedCallers;
  /** Baton: checks of each call before the editor applies it (the guardrail's `toolCall` is the call, with its operation and diff). */
  inputGuardrails?: ToolInputGuardrail<any, ApplyPatchCallItem>[];
  /** Baton: checks of the editor's message (`output`) before the model sees it. */
  outputGuardrails?: ToolOutputGuardrail<any, ApplyPatchCallItem>[];
  /** Attaches data of your own to each applied patch's output item (`RunToolCallOutputItem.customData`). */
  customDataExtractor?: ApplyPatchToolCustomDataExtractor;
}

/** What an apply-patch tool's `customDataExtractor` is given for an operation the editor ran (copies of the operation and raw item). */
export interface ApplyPatchToolCustomDataContext {
  runContext: RunContextContract<any>;
  tool: ApplyPatchTool;
  operation: ApplyPatchOperation;
  output: string;
  status: ApplyPatchCallResultItem['status'];
  rawItem: ApplyPatchCallResultItem;
}

export type ApplyPatchToolCustomDataExtractor = ToolOutputCustomDataExtractor<ApplyPatchToolCustomDataContext>;

/** What a computer initializer receives: the run it serves. */
export interface ComputerInitializerArgs<TContext = unknown> {
  runContext: RunContextContract<TContext>;
}

/** Makes a computer for one run (a fresh one per run context). */
export type ComputerCreate<TContext = unknown, TComputer extends Computer = Computer> = {
  bivarianceHack(args: ComputerInitializerArgs<TContext>): TComputer | Promise<TComputer>;
}['bivarianceHack'];

/** Tears a run's computer down after the run. */
export type ComputerDispose<TContext = unknown, TComputer extends Computer = Computer> = {
  bivarianceHack(args: ComputerInitializerArgs<TContext> & { computer: TComputer }): void | Promise<void>;
}['bivarianceHack'];

/** A computer made per run and disposed after it. */
export interface ComputerProvider<TContext = unknown, TComputer extends Computer = Computer> {
  create: ComputerCreate<TContext, TComputer>;
  dispose?: ComputerDispose<TContext, TComputer>;
}

/** A computer, or how to make one per run. */
export type ComputerConfig<TContext = unknown, TComputer extends Computer = Computer> =
  | TComputer
  | ComputerCreate<TContext, TComputer>
  | ComputerProvider<TContext, TComputer>;

/** Whether a computer action needs a human's approval. */
export type ComputerApprovalFunction = (runContext: RunContextContract<any>, action: ComputerAction, callId?: string) => Promise<boolean>;

/** A safety check the model attached to a computer call (`pending_safety_checks`). */
export interface ComputerSafetyCheck {
  id: string;
  code: string;
  message?: string;
  [key: string]: unknown;
}

/**
 * `true` acknowledges every pending check, `false` rejects the call (the model is told, the run
 * goes on), nothing runs it without acknowledging; or the checks to acknowledge.
 */
export type ComputerSafetyCheckResult =
  | void
  | boolean
  | { acknowledgedSafetyChecks: ComputerSafetyCheck[] }
  | { acknowledged_safety_checks: ComputerSafetyCheck[] };

/** Decides what to do about a computer call's pending safety checks. */
export type ComputerOnSafetyCheckFunction = (args: {
  runContext: RunContextContract<any>;
  pendingSafetyChecks: ComputerSafetyCheck[];
  toolCall: ComputerUseCallItem;
}) => Promise<ComputerSafetyCheckResult>;

/** The computer-use tool (`computerTool()`), as the reference types it. */
export interface ComputerTool<TContext = unknown, TComputer extends Computer = Computer> {
  type: 'computer';
  /** The name of the tool (`computer_use_preview` by default). */
  name: 'computer_use_preview' | (string & {});
  /** The computer, or its initializer; a run resolves it to the computer that run uses. */
  computer: ComputerConfig<TContext, TComputer>;
  needsApproval: ComputerApprovalFunction;
  onSafetyCheck?: ComputerOnSafetyCheckFunction;
  /** Baton: checks of each call before its actions run (the guardrail's `toolCall` is the call). */
  inputGuardrails?: ToolInputGuardrail<TContext, ComputerUseCallItem>[];
  /** Baton: checks of the screenshot (`output`, base64) before the model sees it. */
  outputGuardrails?: ToolOutputGuardrail<TContext, ComputerUseCallItem>[];
  /** Attaches data of your own to each screenshot's output item (`RunToolCallOutputItem.customData`). */
  customDataExtractor?(context: ComputerToolCustomDataContext<TContext, TComputer>): ReturnType<ComputerToolCustomDataExtractor<TContext, TComputer>>;
}

/** What a computer tool's `customDataExtractor` is given for a call whose actions ran (copies of the call and raw item). */
export interface ComputerToolCustomDataContext<TContext = unknown, TComputer extends Computer = Computer> {
  runContext: RunContextContract<TContext>;
  tool: ComputerTool<any, TComputer>;
  toolCall: ComputerUseCallItem;
  /** The screenshot's data URL. */
  output: string;
  rawItem: ComputerCallResultItem;
}

export type ComputerToolCustomDataExtractor<TContext = unknown, TComputer extends Computer = Computer> = ToolOutputCustomDataExtractor<ComputerToolCustomDataContext<TContext, TComputer>>;
