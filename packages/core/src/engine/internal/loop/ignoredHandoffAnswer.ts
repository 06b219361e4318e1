/** What the server is told for a handoff call the run passed over (the first handoff of a response wins), in the reference's words. */
export const IGNORED_HANDOFF_ANSWER = 'Multiple handoffs detected, ignoring this one.';
