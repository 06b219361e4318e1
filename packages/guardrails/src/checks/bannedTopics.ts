import { UserError } from '@baton/types';
import { defineCheck, type GuardrailCheck } from '../check.js';

export interface BannedTopicsCheckOptions {
  /** Keywords, or keywords grouped by topic. Matched as whole words, ignoring case. */
  keywords: readonly string[] | Readonly<Record<string, readonly string[]>>;
  name?: string;
  rejectMessage?: string;
}

export interface BannedTopicsCheckInfo {
  /** The topics hit (the keyword itself when keywords are not grouped). */
  topics: string[];
  /** The keywords found, as configured. */
  keywords: string[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A whole-word, case-insensitive pattern; spaces in a phrase match any run of white space. */
function wordPattern(keyword: string): RegExp {
  const body = keyword.trim().split(/\s+/).map(escape).join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${body}(?![\\p{L}\\p{N}_])`, 'iu');
}

/** Trips when the text mentions a banned keyword (as a whole word, case-insensitive). */
export function bannedTopicsCheck(options: readonly string[] | BannedTopicsCheckOptions): GuardrailCheck<BannedTopicsCheckInfo> {
  const settings: BannedTopicsCheckOptions = Array.isArray(options) ? { keywords: options } : (options as BannedTopicsCheckOptions);
  const groups = toGroups(settings?.keywords);
  const entries = groups.flatMap(([topic, keywords]) => keywords.map((keyword) => ({ topic, keyword, pattern: wordPattern(keyword) })));
  return defineCheck({
    name: settings.name ?? 'banned_topics',
    rejectMessage: settings.rejectMessage ?? 'This request touches a topic this tool does not handle.',
    inspect: ({ text }) => {
      const hits = entries.filter((entry) => entry.pattern.test(text));
      const info = { topics: [...new Set(hits.map((hit) => hit.topic))], keywords: hits.map((hit) => hit.keyword) };
      return { tripped: hits.length > 0, info };
    },
  });
}

function toGroups(keywords: BannedTopicsCheckOptions['keywords'] | undefined): Array<[string, readonly string[]]> {
  const groups: Array<[string, readonly string[]]> = Array.isArray(keywords)
    ? (keywords as readonly string[]).map((keyword) => [keyword, [keyword]])
    : typeof keywords === 'object' && keywords !== null
      ? Object.entries(keywords as Record<string, readonly string[]>)
      : [];
  const count = groups.reduce((n, [, list]) => n + (Array.isArray(list) ? list.length : 0), 0);
  if (count === 0) throw new UserError('bannedTopicsCheck: `keywords` must be a non-empty list of strings (or of lists by topic).');
  for (const [topic, list] of groups) {
    if (!Array.isArray(list) || list.some((k) => typeof k !== 'string' || k.trim() === '')) {
      throw new UserError(`bannedTopicsCheck: the keywords of ${JSON.stringify(topic)} must be non-empty strings.`);
    }
  }
  return groups;
}
