/**
 * The `Computer` contract behind the computer-use tool: the model asks for screenshots and
 * mouse / keyboard actions, the host performs them. The shapes are the reference SDK's
 * (`Computer`, `ComputerAction`). `@baton/testing` ships `FakeComputer` for tests.
 */
import type { RunContextContract } from './runContext.js';

/** The display a computer presents to the model. */
export type ComputerEnvironment = 'mac' | 'windows' | 'ubuntu' | 'browser';

/** A mouse button. */
export type ComputerButton = 'left' | 'right' | 'wheel' | 'back' | 'forward';

/** One action of a computer call, as the model sends it (snake_case fields, as on the wire). */
export type ComputerAction =
  | { type: 'screenshot' }
  | { type: 'click'; x: number; y: number; button: ComputerButton }
  | { type: 'double_click'; x: number; y: number }
  | { type: 'scroll'; x: number; y: number; scroll_x: number; scroll_y: number }
  | { type: 'type'; text: string }
  | { type: 'wait' }
  | { type: 'move'; x: number; y: number }
  | { type: 'keypress'; keys: string[] }
  | { type: 'drag'; path: Array<{ x: number; y: number }> };

type MaybePromise<T> = T | Promise<T>;

/**
 * A computer environment an agent drives. `screenshot` returns a base64-encoded image (PNG); the
 * other methods perform one action each (a method per `ComputerAction` type, camelCased). Throwing
 * refuses the action: the run reports it to the model.
 */
export interface Computer {
  /** The display, sent to models whose computer tool needs it. */
  environment?: ComputerEnvironment;
  /** The display's `[width, height]` in pixels, sent to models whose computer tool needs it. */
  dimensions?: [number, number];
  /** Called once per run before the first action. */
  initRun?(runContext?: RunContextContract): MaybePromise<void>;
  screenshot(runContext?: RunContextContract): MaybePromise<string>;
  click(x: number, y: number, button: ComputerButton, runContext?: RunContextContract): MaybePromise<void>;
  doubleClick(x: number, y: number, runContext?: RunContextContract): MaybePromise<void>;
  scroll(x: number, y: number, scrollX: number, scrollY: number, runContext?: RunContextContract): MaybePromise<void>;
  type(text: string, runContext?: RunContextContract): MaybePromise<void>;
  wait(runContext?: RunContextContract): MaybePromise<void>;
  move(x: number, y: number, runContext?: RunContextContract): MaybePromise<void>;
  keypress(keys: string[], runContext?: RunContextContract): MaybePromise<void>;
  drag(path: [number, number][], runContext?: RunContextContract): MaybePromise<void>;
}
