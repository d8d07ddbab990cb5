import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountGroup, Organization, Token } from '../model.js';
import type { Serializer } from '../serialize.js';
import type { PlatformState } from '../state.js';

/** Who called, as the gate found them: the token, its organization, the account group asked for. */
export interface SandboxCaller {
  token: Token;
  org: Organization;
  group: AccountGroup;
  serializer: Serializer;
}

/** What every resource's routes share: the state, the clocks, the caller, the HAL content type. */
export interface RouteContext {
  state: PlatformState;
  /** The real clock (rate windows, call records). */
  now(): number;
  /** The world's clock: fixed worlds (tests) date and measure from their own moment. */
  worldNow(): number;
  caller(request: FastifyRequest): SandboxCaller;
  hal(reply: FastifyReply): FastifyReply;
  /**
   * Where people open the sandbox's pages: the product's public address when the sandbox is embedded (its own calls
   * reach it in-process, at a host nobody can open); the request's host when not given.
   */
  publicUrl?: string | undefined;
}
