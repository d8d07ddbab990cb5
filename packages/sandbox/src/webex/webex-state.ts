import { createHash, randomUUID } from 'node:crypto';
import { LIMITS } from '../bounded.js';

// The sandbox's Webex as the bot sees it: the messages it delivered, the rooms it is in and who is in them.

/** Webex's limit on a message's text or markdown, in bytes. */
export const WEBEX_TEXT_LIMIT_BYTES = 7439;

export interface WebexFile {
  id: string;
  name: string;
  contentType: string;
  content: Buffer;
}

export interface WebexMessage {
  id: string;
  /** A direct message's person ('' for a room's message). */
  toPersonEmail: string;
  /** A room's message: the room it was posted in. */
  roomId?: string;
  markdown?: string;
  text?: string;
  file?: WebexFile;
  created: string;
}

/** A person's membership of a room, as Webex's Memberships API answers it. */
export interface WebexMembership {
  id: string;
  roomId: string;
  personId: string;
  personEmail: string;
  personDisplayName: string;
  personOrgId: string;
  isModerator: boolean;
  isMonitor: boolean;
  roomType: 'group';
  created: string;
}

/** A group room the bot is in (rooms it is not in do not exist for it), with its members. */
export interface WebexRoom {
  id: string;
  title: string;
  created: string;
  memberships: WebexMembership[];
}

/** The bot's own identity in the sandbox's Webex. */
export const SANDBOX_BOT_EMAIL = 'ce-toolkit-bot@webex.bot';
export const SANDBOX_ORG_ID = Buffer.from('ciscospark://us/ORGANIZATION/sandbox').toString('base64url');
/** Webex ids are base64 of a `ciscospark://us/<TYPE>/<uuid>` URI. */
const webexId = (type: string, uuid: string = randomUUID()) =>
  Buffer.from(`ciscospark://us/${type}/${uuid}`).toString('base64url');
/** A person's id: the same for the same email. */
export const personIdOf = (email: string) =>
  webexId('PEOPLE', createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 32));

/** Delivered messages, the most recent first to stay: at most 1,000, and 100 MB of files in all. */
export class WebexState {
  readonly messages: WebexMessage[] = [];
  /** The group rooms the bot is in, by id, at most `LIMITS.webexMessages` of them. */
  readonly rooms = new Map<string, WebexRoom>();
  /** Until this time (epoch ms), every message answers 429 with Retry-After. */
  throttledUntil = 0;
  /** Until when messages to one person answer 429 (a test throttling only its own user), by their email. */
  readonly throttledFor = new Map<string, number>();
  retryAfterSeconds = 2;
  /** Until this time (epoch ms), Webex is down: every message, sent or listed, answers 503. */
  unavailableUntil = 0;
  private fileBytes = 0;

  add(message: WebexMessage): void {
    this.messages.push(message);
    this.fileBytes += message.file?.content.length ?? 0;
    while (
      this.messages.length > LIMITS.webexMessages ||
      (this.fileBytes > LIMITS.webexBytes && this.messages.length > 1)
    ) {
      const dropped = this.messages.shift();
      this.fileBytes -= dropped?.file?.content.length ?? 0;
    }
  }

  /** Deletes a message (DELETE /v1/messages/{id}); false when there is none by that id. */
  remove(id: string): boolean {
    const index = this.messages.findIndex((message) => message.id === id);
    if (index < 0) return false;
    const [removed] = this.messages.splice(index, 1);
    this.fileBytes -= removed?.file?.content.length ?? 0;
    return true;
  }

  /** A room the bot made (POST /v1/rooms): the bot is its moderator. */
  createRoom(title: string): WebexRoom {
    const id = webexId('ROOM');
    const room: WebexRoom = { id, title, created: new Date().toISOString(), memberships: [] };
    this.rooms.set(id, room);
    this.addMember(room, SANDBOX_BOT_EMAIL, true);
    // Bounded like the messages: the oldest room goes first.
    for (const oldest of this.rooms.keys()) {
      if (this.rooms.size <= LIMITS.webexMessages) break;
      this.rooms.delete(oldest);
    }
    return room;
  }

  addMember(room: WebexRoom, personEmail: string, isModerator = false): WebexMembership {
    const personId = personIdOf(personEmail);
    const membership: WebexMembership = {
      id: webexId('MEMBERSHIP'),
      roomId: room.id,
      personId,
      personEmail,
      personDisplayName: personEmail.split('@')[0] ?? personEmail,
      personOrgId: SANDBOX_ORG_ID,
      isModerator,
      isMonitor: false,
      roomType: 'group',
      created: new Date().toISOString(),
    };
    room.memberships.push(membership);
    return membership;
  }

  reset(): void {
    this.messages.length = 0;
    this.rooms.clear();
    this.fileBytes = 0;
    this.throttledUntil = 0;
    this.unavailableUntil = 0;
    this.throttledFor.clear();
  }
}
