// Typing the local-execution contracts a coding or computer-use agent implements: a Shell, an
// Editor (with applyDiff) and a Computer, written as the reference's examples write them.
import {
  applyDiff,
  RunContext,
  type ApplyPatchOperation,
  type ApplyPatchResult,
  type Computer,
  type Editor,
  type EditorInvocationContext,
  type Shell,
  type ShellAction,
  type ShellOutputResult,
  type ShellResult,
} from 'sdk';

class EchoShell implements Shell {
  async run(action: ShellAction): Promise<ShellResult> {
    const output: ShellOutputResult[] = action.commands.map((command) => ({ stdout: command, stderr: '', outcome: { type: 'exit', exitCode: 0 } }));
    if (action.timeoutMs !== undefined) output.push({ stdout: '', stderr: '', outcome: { type: 'timeout' } });
    return { output, maxOutputLength: action.maxOutputLength ?? 1000 };
  }
}

class MemoryEditor implements Editor {
  files = new Map<string, string>();
  async createFile(operation: Extract<ApplyPatchOperation, { type: 'create_file' }>): Promise<ApplyPatchResult> {
    this.files.set(operation.path, applyDiff('', operation.diff, 'create'));
    return { status: 'completed', output: `Created ${operation.path}` };
  }
  async updateFile(operation: Extract<ApplyPatchOperation, { type: 'update_file' }>, context?: EditorInvocationContext): Promise<ApplyPatchResult> {
    const updated = applyDiff(this.files.get(operation.path) ?? '', operation.diff);
    this.files.set(operation.moveTo ?? operation.path, updated);
    return { output: context ? 'updated in a run' : 'updated' };
  }
  async deleteFile(operation: Extract<ApplyPatchOperation, { type: 'delete_file' }>): Promise<void> {
    this.files.delete(operation.path);
  }
}

class NullComputer implements Computer {
  environment = 'browser' as const;
  dimensions: [number, number] = [1024, 768];
  async screenshot(_runContext?: RunContext): Promise<string> {
    return '';
  }
  async click(_x: number, _y: number, _button: 'left' | 'right' | 'wheel' | 'back' | 'forward'): Promise<void> {}
  async doubleClick(_x: number, _y: number): Promise<void> {}
  async scroll(_x: number, _y: number, _scrollX: number, _scrollY: number): Promise<void> {}
  async type(_text: string): Promise<void> {}
  async wait(): Promise<void> {}
  async move(_x: number, _y: number): Promise<void> {}
  async keypress(_keys: string[]): Promise<void> {}
  async drag(_path: [number, number][]): Promise<void> {}
}

export const localTools: [Shell, Editor, Computer] = [new EchoShell(), new MemoryEditor(), new NullComputer()];
export const patched: string = applyDiff('a\n', ' a\n+b\n');
