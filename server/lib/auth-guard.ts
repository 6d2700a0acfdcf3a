import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { UserType } from '../../shared/constants.js';
import { AppError, forbidden } from './errors.js';

/** Who is calling: what every policy decides on. */
export type Actor = {
  id: string;
  email: string;
  type: UserType;
  state: 'active' | 'inactive';
  registered: boolean;
  sessionId: string;
};

export type SessionResolver = (token: string) => Promise<Actor | null>;

declare module 'fastify' {
  interface FastifyInstance {
    resolveSession: SessionResolver;
  }
  interface FastifyContextConfig {
    /**
     * The guard a route calls in its handler instead of as a preHandler (exam day's fast
     * paths resolve the session in their own statement first), so the description knows it.
     */
    guard?: preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    actor: Actor | null;
  }
}

export type GuardOptions = {
  /** Roles allowed; omitted = any signed-in user. */
  roles?: readonly UserType[];
  /** Require state active (default true). */
  active?: boolean;
  /** Require a completed registration (default true). */
  registered?: boolean;
};

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !token || token.length > 200) return null;
  return token;
}

/** The options each guard was made with, so the OpenAPI description can tell who may call. */
const guardOptions = new WeakMap<object, GuardFacts>();

/** A guard's options with their defaults filled in. */
export type GuardFacts = { roles?: readonly UserType[]; active: boolean; registered: boolean };

/**
 * The guard among a route's preHandlers (or the one its config says its handler calls), with
 * its options; undefined for a public route. The OpenAPI description reads it to mark the
 * route's security, 401 and 403.
 */
export function guardOf(route: { preHandler?: unknown; config?: unknown }): GuardFacts | undefined {
  const called = (route.config as { guard?: unknown } | undefined)?.guard;
  for (const handler of [route.preHandler, called].flat()) {
    const options = typeof handler === 'function' ? guardOptions.get(handler) : undefined;
    if (options) return options;
  }
  return undefined;
}

/** Resolves the session (401 without a valid one) and checks role, registration and state (403). */
export function guard(options: GuardOptions = {}): preHandlerAsyncHookHandler {
  const { roles, active = true, registered = true } = options;
  const check = async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(request);
    const actor = token ? await request.server.resolveSession(token) : null;
    if (!actor) throw new AppError('UNAUTHORIZED', 'A valid session is required');
    request.actor = actor;
    if (roles && !roles.includes(actor.type)) throw forbidden();
    // Admins are created complete and active; the checks below concern people who sign up.
    if (actor.type !== 'admin') {
      if (registered && !actor.registered) throw forbidden();
      if (active && actor.state !== 'active') throw forbidden();
    }
  };
  guardOptions.set(check, { roles, active, registered });
  return check;
}

/** The actor of a guarded route (the guard guarantees it is set). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('UNAUTHORIZED', 'A valid session is required');
  return request.actor;
}
