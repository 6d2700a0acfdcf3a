import { API_BASE, getSession } from '../../../api/client.js';
import { myTestPath } from './keys.js';

export type AttemptEvent = { event: string; data: Record<string, unknown> };

/**
 * Splits an event stream's text into events (`event:` and `data:` lines, a blank line after
 * each); comments and incomplete events are skipped. Returns the events and the unfinished
 * rest, to be put in front of the next chunk.
 */
export function parseEventStream(text: string): { events: AttemptEvent[]; rest: string } {
  const events: AttemptEvent[] = [];
  const blocks = text.replace(/\r\n/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length === 0) continue;
    try {
      const parsed = JSON.parse(data.join('\n')) as unknown;
      if (parsed && typeof parsed === 'object') {
        events.push({ event, data: parsed as Record<string, unknown> });
      }
    } catch {
      // Not JSON: not one of ours.
    }
  }
  return { events, rest };
}

/**
 * GET /test-player/mytests/{testId}/events: the attempt's state, then its deadline each time
 * staff change it. Read with fetch, which can send the session header (EventSource cannot).
 * Resolves when the server ends the stream; rejects on a failed call or a lost connection.
 */
export async function readAttemptEvents(
  testId: string,
  onEvent: (event: AttemptEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const session = getSession();
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (session) headers.authorization = `Bearer ${session.token}`;
  const res = await fetch(`${API_BASE}${myTestPath(testId)}/events`, { headers, signal });
  if (!res.ok || !res.body) throw new Error(`event stream: ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) return;
    const { events, rest } = parseEventStream(
      buffered + decoder.decode(chunk.value, { stream: true }),
    );
    buffered = rest;
    for (const event of events) onEvent(event);
  }
}
