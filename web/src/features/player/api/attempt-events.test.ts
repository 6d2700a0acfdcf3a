import { describe, expect, it } from 'vitest';
import { parseEventStream } from './attempt-events.js';

describe('parseEventStream', () => {
  it('reads whole events and keeps an unfinished one for the next chunk', () => {
    const first = parseEventStream(
      'retry: 5000\n\nevent: attempt\ndata: {"state":"in_progress"}\n\n: \n\nevent: deadline\ndata: {"dead',
    );
    expect(first.events).toEqual([{ event: 'attempt', data: { state: 'in_progress' } }]);
    const second = parseEventStream(`${first.rest}line":"2026-11-23T10:40:00.000Z"}\n\n`);
    expect(second).toEqual({
      events: [{ event: 'deadline', data: { deadline: '2026-11-23T10:40:00.000Z' } }],
      rest: '',
    });
  });

  it('takes CRLF line ends and skips data that is not a JSON object', () => {
    const { events } = parseEventStream(
      'event: deadline\r\ndata: {"deadline":"x"}\r\n\r\nevent: deadline\r\ndata: oops\r\n\r\ndata: 5\n\n',
    );
    expect(events).toEqual([{ event: 'deadline', data: { deadline: 'x' } }]);
  });
});
