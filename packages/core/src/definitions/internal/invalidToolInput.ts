import { InvalidToolInputError, type ToolInvocationErrorContext } from '@baton/types';

/** The reference's words for arguments that are not JSON or do not fit the schema, all a redacted error says. */
export const INVALID_TOOL_INPUT_MESSAGE = 'Invalid JSON input for tool';

/**
 * One call's invalid arguments, as the tool's error function and its caller see them. While tool
 * data may be logged, the error says what was wrong (its message names the tool and the parser's
 * or the schema's complaint, which may quote the arguments), carries the parser's or validator's
 * error (`originalError`) and the invocation (`toolInvocation`: the context, the raw arguments,
 * the details), and the error function gets the call's details. While it must not (the default), the error is bare and the
 * error function gets no details: the arguments, which may hold a secret, stay out of both, and
 * out of whatever logs them. The setting is read when the failure is made and again each time it
 * is `refresh`ed; once redacted, a failure stays so.
 */
export class InvalidToolInput {
  #error: InvalidToolInputError;
  #redacted: boolean;

  constructor(
    private readonly mustRedact: () => boolean,
    detailedMessage: string,
    originalError: unknown,
    invocation: ToolInvocationErrorContext,
  ) {
    this.#redacted = mustRedact();
    this.#error = this.#redacted ? this.#bare() : this.#register(new InvalidToolInputError(detailedMessage, undefined, originalError, invocation));
  }

  /** The error to show now (a bare one once redacted). */
  get error(): InvalidToolInputError {
    return this.#error;
  }

  /** Reads the setting again: true when the failure is (now) redacted, its error then bare. */
  refresh(): boolean {
    if (!this.#redacted && this.mustRedact()) {
      this.#redacted = true;
      this.#error = this.#bare();
    }
    return this.#redacted;
  }

  #bare(): InvalidToolInputError {
    return this.#register(new InvalidToolInputError(INVALID_TOOL_INPUT_MESSAGE));
  }

  #register(error: InvalidToolInputError): InvalidToolInputError {
    failures.set(error, this);
    return error;
  }
}

const failures = new WeakMap<object, InvalidToolInput>();

/** The invalid-arguments failure `error` is the error of, when it is one (thrown by a tool made with `tool()`). */
export function invalidToolInputOf(error: unknown): InvalidToolInput | undefined {
  return typeof error === 'object' && error !== null ? failures.get(error) : undefined;
}
