// The harness's control: this must not type-check (a tool's input is typed from its schema).
import { z } from 'zod';
import { tool } from 'sdk';

export const wrong = tool({ name: 'w', description: 'w', parameters: z.object({ n: z.number() }), execute: ({ n }) => n.toUpperCase() });
