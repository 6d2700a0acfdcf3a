import { PassThrough } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { liveResponseSchema } from '../../../shared/schemas/exam-day.js';
import {
  type AnswerRequest,
  answerAckSchema,
  answerRequestSchema,
  extraTimeRequestSchema,
  incidentSchema,
  myTestsResponseSchema,
  playerItemsResponseSchema,
  playerStateSchema,
  reopenRequestSchema,
  type SequencedAnswer,
  startRequestSchema,
  startResponseSchema,
} from '../../../shared/schemas/player.js';
import { actorOf, bearerToken, guard } from '../../lib/auth-guard.js';
import type { Notices } from '../../lib/notices.js';
import { attemptTopic, type PlayerService } from './player.service.js';

const tags = ['test-player'];
const studentGuard = guard({ roles: ['student'] });
const staffGuard = guard({ roles: ['teacher', 'admin'] });
// The panel's scope is decided by the policy (a student gets 404 like any outsider).
const memberGuard = guard();
const testParams = z.object({ testId: z.uuid() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const livePhaseParams = z.object({ examId: z.uuid(), editionId: z.uuid(), phaseId: z.uuid() });
const studentParams = testParams.extend({ studentId: z.uuid() });
const binary = z.instanceof(Buffer).describe('binary file');
/** A comment line this often keeps proxies from closing a quiet event stream. */
const KEEP_ALIVE_MS = 25_000;

/** The player always numbers its answers; SPEC.md §7's body may not (see answerRequestSchema). */
const isSequenced = (body: AnswerRequest): body is SequencedAnswer => body.seq !== undefined;

const ERRORS_NOTE =
  '404 when the test is not one of the student’s (not registered for the phase, grade not ' +
  'among the test’s, not published). 403 OPERATION_NOT_PERMITTED for a hybrid test.';

/** `/api/v1/test-player` (SPEC.md §7 Test player); shapes in shared/schemas/player.ts. */
export const playerRoutes =
  (player: PlayerService, notices: Notices): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const streams = new Set<PassThrough>();
    // Open event streams would hold the server open: they end first, and the players reconnect.
    app.addHook('preClose', async () => {
      for (const stream of streams) stream.end();
    });

    r.get(
      '/mytests',
      {
        schema: {
          tags,
          summary: 'My tests: each with its state, score when available, time left when running',
          response: { 200: myTestsResponseSchema },
        },
        preHandler: studentGuard,
      },
      // Every student opens it on exam morning: sent as JSON text (toMyTest makes exactly the
      // schema's fields, player.api.test.ts checks it), not parsed by the schema again.
      async (request, reply) =>
        (reply as FastifyReply)
          .type('application/json; charset=utf-8')
          .send(JSON.stringify(await player.myTests(actorOf(request)))),
    );

    r.post(
      '/mytests/:testId',
      {
        schema: {
          tags,
          summary: 'Start the test (or resume the running attempt)',
          description:
            'Idempotent: a repeated start returns the same attempt with its remaining time. ' +
            'The first start needs `{ termsAccepted: true }` (VALIDATION_FAILED `required` at ' +
            'termsAccepted) and the test window open (409 TEST_NOT_ACTIVE); a finished ' +
            `attempt gives 409 TEST_ALREADY_REVIEWED. ${ERRORS_NOTE}`,
          params: testParams,
          body: startRequestSchema.optional(),
          response: { 200: startResponseSchema },
        },
        // The guard runs in the handler, after the fast path (the description reads it here).
        config: { guard: studentGuard },
      },
      async (request, reply) => {
        // Fast path: the session is resolved in the start's own read.
        const token = bearerToken(request);
        const { testId } = request.params;
        const body = request.body ?? {};
        const started = token ? await player.tryStart(token, testId, body) : null;
        // A new attempt's answer comes as JSON text already (see newStartJson): sent as it is,
        // through the untyped reply, which sends text without serialising it again.
        if (typeof started === 'string') {
          return (reply as FastifyReply).type('application/json; charset=utf-8').send(started);
        }
        if (started) return started;
        // Slow path: the usual guard gives 401/403, then the service says what is wrong.
        await studentGuard.call(app, request, reply);
        return player.start(actorOf(request), testId, body);
      },
    );

    r.put(
      '/mytests/:testId',
      {
        schema: {
          tags,
          summary: 'Save one answer',
          description:
            'Acknowledged after commit. A `seq` lower than or equal to the stored one for the ' +
            'item changes nothing and acks the stored seq. 409 TEST_NOT_ACTIVE when not ' +
            'started or past the deadline plus grace; 409 TEST_ALREADY_REVIEWED once finished; ' +
            `VALIDATION_FAILED \`invalid\` at itemId or submittedAnswer. ${ERRORS_NOTE}`,
          params: testParams,
          body: answerRequestSchema,
          response: { 200: answerAckSchema },
        },
        // The exam's hottest write: its small ack goes as it is (server/lib/compression.ts).
        compress: false,
        config: { guard: studentGuard },
        // Counted for the exam-day panel in memory, after the answer went out (see
        // exam-day-stats.ts): nothing is added to the write itself.
        onResponse: (request, reply, done) => {
          // A path that names no test (refused by its schema) is not counted: the counts'
          // table keys them by test id.
          const { testId } = request.params as { testId?: unknown };
          if (typeof testId === 'string' && UUID.test(testId)) {
            player.answerStats.answered(testId, reply.elapsedTime, reply.statusCode < 300);
          }
          done();
        },
      },
      async (request, reply) => {
        // Fast path: the session is resolved inside the write itself (one round trip).
        const token = bearerToken(request);
        const { testId } = request.params;
        const body = request.body;
        const ack = token && isSequenced(body) ? await player.tryAnswer(token, testId, body) : null;
        if (ack) return ack;
        // Slow path: the usual guard gives 401/403, then the service says what is wrong (or,
        // for an answer without seq, writes it as the newest of its item).
        await studentGuard.call(app, request, reply);
        return isSequenced(body)
          ? player.explainAnswer(actorOf(request), token ?? '', testId, body)
          : player.answerUnsequenced(actorOf(request), token ?? '', testId, body);
      },
    );

    r.put(
      '/mytests/:testId/review',
      {
        schema: {
          tags,
          summary: 'Finish the test',
          description:
            'Final and idempotent: the first call scores the online test, repeats return the ' +
            'same result. `score` is what is already known: `scoreState` `awaiting_marking` ' +
            'with `awaitingItems` open items still to be marked, `provisional` while the ' +
            `phase's appeal window is ahead or open, else \`final\`. 409 TEST_NOT_ACTIVE when not started. ${ERRORS_NOTE}`,
          params: testParams,
          response: { 200: playerStateSchema },
        },
        config: { guard: studentGuard },
      },
      async (request, reply) => {
        // Fast path: the session is resolved inside the finish's own statement, and the
        // finishes that arrive together end together (exam day's last minute).
        const token = bearerToken(request);
        const { testId } = request.params;
        const finished = token ? await player.tryFinish(token, testId) : null;
        if (finished) return finished;
        // Slow path: the usual guard gives 401/403, then the service says what is wrong (or
        // answers a repeated finish with the same result).
        await studentGuard.call(app, request, reply);
        return player.finish(actorOf(request), testId);
      },
    );

    r.get(
      '/mytests/:testId/state',
      {
        schema: {
          tags,
          summary: 'The attempt’s state and the server’s timer',
          params: testParams,
          response: { 200: playerStateSchema },
        },
        preHandler: studentGuard,
      },
      async (request) => player.state(actorOf(request), request.params.testId),
    );

    r.get(
      '/mytests/:testId/events',
      {
        schema: {
          tags,
          summary: 'The attempt’s deadline, pushed whenever staff change it (event stream)',
          description:
            '`text/event-stream`: first an `attempt` event with the state as `GET …/state` ' +
            'gives it, then a `deadline` event `{ deadline }` each time staff give extra ' +
            'time or reopen the attempt, and a comment line every 25 s. Same errors as ' +
            '`GET …/state`.',
          params: testParams,
        },
        // Events must reach the browser as they are written, not when a compressor flushes.
        compress: false,
        preHandler: studentGuard,
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const { testId } = request.params;
        const first = await player.state(actor, testId);
        const stream = new PassThrough();
        const send = (event: string, data: unknown) =>
          stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        const stop = await notices.subscribe(attemptTopic(actor.id, testId), (payload) =>
          send('deadline', payload),
        );
        const keepAlive = setInterval(() => stream.write(': \n\n'), KEEP_ALIVE_MS);
        streams.add(stream);
        const close = () => {
          clearInterval(keepAlive);
          stop();
          streams.delete(stream);
          stream.end();
        };
        request.raw.once('close', close);
        stream.once('close', close);
        stream.write('retry: 5000\n\n');
        send('attempt', first);
        return (
          reply
            .header('content-type', 'text/event-stream; charset=utf-8')
            .header('cache-control', 'no-store')
            .header('x-accel-buffering', 'no')
            // One stream per connection: when it ends, so does the connection (a server that
            // is stopping must not wait for it as an idle keep-alive one).
            .header('connection', 'close')
            .send(stream)
        );
      },
    );

    r.get(
      '/mytests/:testId/items',
      {
        schema: {
          tags,
          summary: 'The attempt’s items with the stored answers',
          description:
            'Correct answers and earned points only once the attempt is finished, the test ' +
            'has ended and nobody is still writing it (`reviewed`).',
          params: testParams,
          response: { 200: playerItemsResponseSchema },
        },
        preHandler: studentGuard,
      },
      async (request) => player.items(actorOf(request), request.params.testId),
    );

    r.get(
      '/mytests/:testId/files/:fileId',
      {
        schema: {
          tags,
          summary: 'An image shown by a statement of the test',
          params: testParams.extend({ fileId: z.uuid() }),
          response: { 200: binary },
        },
        preHandler: studentGuard,
      },
      async (request, reply) => {
        const { testId, fileId } = request.params;
        const file = await player.file(actorOf(request), testId, fileId);
        return reply
          .header('content-type', file.mime)
          .header('content-disposition', 'inline')
          .header('cache-control', 'private, max-age=3600')
          .send(file.data);
      },
    );

    r.get(
      '/exams/:examId/editions/:editionId/phases/:phaseId/live',
      {
        schema: {
          tags,
          summary: 'The exam-day panel of a phase: who is writing, who went quiet, answer writes',
          description:
            'Admins, the exam’s admin teachers and staff see every student of the phase ' +
            '(`scope` `phase`); an edition’s coordinator only their own students (`scope` ' +
            '`own`); anyone else, students included, 404. Counts per test and in total; ' +
            'the running attempts without a sign of life (start, answer written, the ' +
            'player’s state check) for more than 60 s, listed; acknowledged and refused ' +
            'answer writes per minute of the phase’s tests over the last 10 minutes with ' +
            'their p99, added up over every server process. Read from the database alone.',
          params: livePhaseParams,
          response: { 200: liveResponseSchema },
        },
        preHandler: memberGuard,
      },
      async (request) => player.live(actorOf(request), request.params),
    );

    r.post(
      '/tests/:testId/students/:studentId/extra-time',
      {
        schema: {
          tags,
          summary: 'Give one student extra minutes (audited)',
          description:
            'Admins, the exam’s admin teachers and staff (others who see the competition: ' +
            '403). 404 when the student has no attempt; 409 TEST_ALREADY_REVIEWED when the ' +
            'attempt is over (reopen it instead).',
          params: studentParams,
          body: extraTimeRequestSchema,
          response: { 200: incidentSchema },
        },
        preHandler: staffGuard,
      },
      async (request) => {
        const { testId, studentId } = request.params;
        return player.extraTime(actorOf(request), testId, studentId, request.body);
      },
    );

    r.post(
      '/tests/:testId/students/:studentId/reopen',
      {
        schema: {
          errors: ['PHASE_CLOSED', 'ANSWER_KEY_SHOWN'],
          tags,
          summary: 'Reopen a student’s attempt with exactly this much time left (audited)',
          description:
            'After a proven incident: the attempt runs again for `remainingSeconds` from now, ' +
            'answers kept, score cleared until it ends again. Same rights as extra time.',
          params: studentParams,
          body: reopenRequestSchema,
          response: { 200: incidentSchema },
        },
        preHandler: staffGuard,
      },
      async (request) => {
        const { testId, studentId } = request.params;
        return player.reopen(actorOf(request), testId, studentId, request.body);
      },
    );
  };
