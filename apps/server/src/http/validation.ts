import type { z } from 'zod';

/** A zod issue as one sentence that names the field and what was wrong with it. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const field = issue.path.length ? issue.path.join('.') : 'body';
      if (issue.code === 'invalid_type') {
        // zod 4 leaves the input out of issues; its message ends "received <type>".
        const received = /received (\w+)\s*$/.exec(issue.message)?.[1];
        if (received === undefined || received === 'undefined') return `${field} is required`;
        return `${field} must be ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}, got ${received}`;
      }
      if (issue.code === 'unrecognized_keys') {
        return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k.slice(0, 40)}"`).join(', ')}`;
      }
      return `${field}: ${issue.message}`;
    })
    .join('; ');
}
