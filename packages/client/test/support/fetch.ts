/** A scripted `fetch` for the unit tests: answers in order, and remembers what it was sent. */
export interface Sent {
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;
  readonly body: string;
  readonly at: number;
}

export type Answer = Response | ((sent: Sent) => Response);

export function scriptedFetch(...answers: Answer[]) {
  const sent: Sent[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const record: Sent = {
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      body: await request.text(),
      at: Date.now(),
    };
    sent.push(record);
    const answer = answers[Math.min(sent.length, answers.length) - 1];
    if (!answer) throw new Error('the script has no answer');
    // A Response's body is read once: a repeated last answer is cloned.
    return typeof answer === 'function' ? answer(record) : answer.clone();
  };
  return { fetch, sent };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
