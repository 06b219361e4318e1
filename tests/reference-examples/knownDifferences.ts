// Reference examples that type-check on @openai/agents 0.20.0 but not yet on Baton, each with the
// reason. The examples check fails when one listed here type-checks (the list only shrinks).
export const knownDifferences: Readonly<Record<string, string>> = {};
