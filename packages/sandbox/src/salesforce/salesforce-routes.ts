import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { LIMITS, pushBounded } from '../bounded.js';
import { escapeHtml, page } from '../html.js';

export const SALESFORCE_API_VERSION = 'v60.0';

export interface SalesforceTask {
  Id: string;
  Subject: string;
  ActivityDate?: string;
  Status: string;
  Priority: string;
  Description?: string;
  WhatId?: string;
  OwnerId?: string;
  Type?: string;
  [field: string]: unknown;
}

/** An engagement record (the object tasks relate to); `Status__c` Closed refuses new tasks. */
export interface SalesforceEngagement {
  Id: string;
  Name: string;
  Engagement_ID__c: string;
  Status__c: 'Active' | 'Closed';
}

export const ENGAGEMENT_OBJECT = 'Engagement__c';

/** The demo engagements: ENG-1001 to ENG-1012 are active, ENG-1013 is closed (its tasks fail). */
function demoEngagements(): SalesforceEngagement[] {
  return Array.from({ length: 13 }, (_, index) => ({
    Id: `a0E${String(index + 1).padStart(12, '0')}AAA`,
    Name: `Engagement ${1001 + index}`,
    Engagement_ID__c: `ENG-${1001 + index}`,
    Status__c: index === 12 ? 'Closed' : 'Active',
  }));
}

export class SalesforceState {
  readonly tasks: SalesforceTask[] = [];
  readonly engagements: SalesforceEngagement[] = demoEngagements();
  readonly accessTokens = new Set<string>();
  private counter = 0;

  nextId(): string {
    this.counter += 1;
    return `00T${String(this.counter).padStart(12, '0')}AAA`;
  }

  reset(): void {
    this.tasks.length = 0;
    this.accessTokens.clear();
    this.engagements.splice(0, this.engagements.length, ...demoEngagements());
  }
}

const STATUSES = ['Not Started', 'In Progress', 'Completed', 'Waiting on someone else', 'Deferred'];
const PRIORITIES = ['High', 'Normal', 'Low'];
const ID_PATTERN = /^[a-zA-Z0-9]{15}([a-zA-Z0-9]{3})?$/;

interface SalesforceError {
  message: string;
  errorCode: string;
  fields: string[];
}

/** Validates a Task the way Salesforce does for the fields the toolkit sends. */
function validateTask(record: Record<string, unknown>): SalesforceError[] {
  const errors: SalesforceError[] = [];
  if (typeof record.Subject !== 'string' || record.Subject.trim() === '') {
    errors.push({
      message: 'Required fields are missing: [Subject]',
      errorCode: 'REQUIRED_FIELD_MISSING',
      fields: ['Subject'],
    });
  } else if (record.Subject.length > 255) {
    errors.push({ message: 'Subject: data value too large', errorCode: 'STRING_TOO_LONG', fields: ['Subject'] });
  }
  if (
    record.ActivityDate !== undefined &&
    (typeof record.ActivityDate !== 'string' ||
      !/^\d{4}-\d{2}-\d{2}$/.test(record.ActivityDate) ||
      Number.isNaN(Date.parse(record.ActivityDate)))
  ) {
    errors.push({
      message: `Activity Date: value not of required type: ${String(record.ActivityDate)}`,
      errorCode: 'INVALID_TYPE_ON_FIELD_IN_RECORD',
      fields: ['ActivityDate'],
    });
  }
  if (record.Status !== undefined && !STATUSES.includes(String(record.Status))) {
    errors.push({
      message: `Status: bad value for restricted picklist field: ${String(record.Status)}`,
      errorCode: 'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST',
      fields: ['Status'],
    });
  }
  if (record.Priority !== undefined && !PRIORITIES.includes(String(record.Priority))) {
    errors.push({
      message: `Priority: bad value for restricted picklist field: ${String(record.Priority)}`,
      errorCode: 'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST',
      fields: ['Priority'],
    });
  }
  if (record.WhatId !== undefined && (typeof record.WhatId !== 'string' || !ID_PATTERN.test(record.WhatId))) {
    errors.push({
      message: `Related To ID: id value of incorrect type: ${String(record.WhatId)}`,
      errorCode: 'MALFORMED_ID',
      fields: ['WhatId'],
    });
  }
  if (record.Description !== undefined && String(record.Description).length > 32_000) {
    errors.push({
      message: 'Description: data value too large',
      errorCode: 'STRING_TOO_LONG',
      fields: ['Description'],
    });
  }
  return errors;
}

/**
 * Salesforce REST stand-in: OAuth token endpoint, sobjects Task create and the composite sobjects API,
 * with field validation and per-record errors.
 */
export const salesforceRoutes: FastifyPluginAsync<{
  state: SalesforceState;
  clientId: string | null;
  clientSecret: string | null;
}> = async (app, { state, clientId, clientSecret }) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.post('/services/oauth2/token', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, string>;
    if (!['client_credentials', 'password'].includes(form.grant_type ?? '')) {
      return reply.status(400).send({ error: 'unsupported_grant_type', error_description: 'grant type not supported' });
    }
    if (
      !form.client_id ||
      !form.client_secret ||
      (clientId !== null && (form.client_id !== clientId || form.client_secret !== clientSecret))
    ) {
      return reply.status(400).send({ error: 'invalid_client', error_description: 'invalid client credentials' });
    }
    const accessToken = `00Dsandbox!${randomBytes(24).toString('base64url')}`;
    state.accessTokens.add(accessToken);
    // Keep the most recent tokens only: the oldest session expires.
    for (const old of state.accessTokens) {
      if (state.accessTokens.size <= LIMITS.crmAccessTokens) break;
      state.accessTokens.delete(old);
    }
    return {
      access_token: accessToken,
      instance_url: `${request.protocol}://${request.host}${request.url.replace(/\/services\/oauth2\/token.*$/, '')}`,
      id: `${request.protocol}://${request.host}/id/00Dsandbox/005sandbox`,
      token_type: 'Bearer',
      issued_at: String(Date.now()),
      signature: randomBytes(32).toString('base64'),
    };
  });

  const authorized = (request: FastifyRequest, reply: FastifyReply) => {
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (token && state.accessTokens.has(token)) return true;
    void reply.status(401).send([{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }]);
    return false;
  };

  const createTask = (record: Record<string, unknown>) => {
    const errors = validateTask(record);
    const engagement = state.engagements.find((candidate) => candidate.Id === record.WhatId);
    if (engagement?.Status__c === 'Closed')
      errors.push({
        message: `${engagement.Engagement_ID__c} is closed: no new activity can be logged against it`,
        errorCode: 'FIELD_CUSTOM_VALIDATION_EXCEPTION',
        fields: ['WhatId'],
      });
    if (errors.length) return { success: false as const, errors };
    const { attributes: _attributes, ...fields } = record;
    const task: SalesforceTask = {
      Status: 'Not Started',
      Priority: 'Normal',
      ...(fields as Partial<SalesforceTask>),
      Subject: String(record.Subject),
      Id: state.nextId(),
    };
    pushBounded(state.tasks, task, LIMITS.crmTasks);
    return { success: true as const, id: task.Id, errors: [] as SalesforceError[] };
  };

  app.post(`/services/data/${SALESFORCE_API_VERSION}/sobjects/Task`, async (request, reply) => {
    if (!authorized(request, reply)) return reply;
    const result = createTask((request.body ?? {}) as Record<string, unknown>);
    if (!result.success) return reply.status(400).send(result.errors);
    return reply.status(201).send({ id: result.id, success: true, errors: [] });
  });

  app.post(`/services/data/${SALESFORCE_API_VERSION}/composite/sobjects`, async (request, reply) => {
    if (!authorized(request, reply)) return reply;
    const body = (request.body ?? {}) as { allOrNone?: boolean; records?: Record<string, unknown>[] };
    const records = Array.isArray(body.records) ? body.records : [];
    if (records.length === 0 || records.length > 200) {
      return reply
        .status(400)
        .send([
          { message: 'records must hold between 1 and 200 records', errorCode: 'INVALID_FIELD', fields: ['records'] },
        ]);
    }
    const wrongType = records.find((record) => (record.attributes as { type?: string } | undefined)?.type !== 'Task');
    if (wrongType)
      return reply
        .status(400)
        .send([{ message: 'sandbox supports Task records only', errorCode: 'INVALID_TYPE', fields: ['attributes'] }]);
    if (body.allOrNone) {
      const failures = records.map(validateTask);
      if (failures.some((errors) => errors.length > 0)) {
        return failures.map((errors) => ({
          success: false,
          errors: errors.length
            ? errors
            : [
                {
                  message: 'The transaction was rolled back since another operation in the same transaction failed.',
                  errorCode: 'ALL_OR_NONE_OPERATION_ROLLED_BACK',
                  fields: [],
                },
              ],
        }));
      }
    }
    return records.map((record) => {
      const result = createTask(record);
      return result.success ? { id: result.id, success: true, errors: [] } : { success: false, errors: result.errors };
    });
  });

  app.get<{ Querystring: { q?: string } }>(`/services/data/${SALESFORCE_API_VERSION}/query`, async (request, reply) => {
    if (!authorized(request, reply)) return reply;
    const query = parseSoql(request.query.q ?? '');
    if ('error' in query) return reply.status(400).send([{ message: query.error, errorCode: 'MALFORMED_QUERY' }]);
    const source = (query.object === 'Task'
      ? state.tasks
      : query.object === ENGAGEMENT_OBJECT
        ? state.engagements
        : []) as unknown as Record<string, unknown>[];
    if (query.object !== 'Task' && query.object !== ENGAGEMENT_OBJECT)
      return reply
        .status(400)
        .send([{ message: `sObject type '${query.object}' is not supported.`, errorCode: 'INVALID_TYPE' }]);
    const records = source
      .filter((record) => query.where.every(({ field, values }) => values.includes(String(record[field] ?? ''))))
      .slice(0, query.limit)
      .map((record) => ({
        attributes: {
          type: query.object,
          url: `/services/data/${SALESFORCE_API_VERSION}/sobjects/${query.object}/${String(record.Id)}`,
        },
        ...Object.fromEntries(query.fields.map((field) => [field, record[field] ?? null])),
      }));
    return { totalSize: records.length, done: true, records };
  });

  app.get('/tasks', async () => ({ records: state.tasks }));

  app.get('/', async (_request, reply) => {
    const rows = state.tasks
      .map(
        (task) =>
          `<tr><td>${escapeHtml(task.Id)}</td><td>${escapeHtml(task.Subject)}</td><td>${escapeHtml(task.ActivityDate)}</td><td>${escapeHtml(task.Status)}</td><td>${escapeHtml(task.WhatId)}</td><td><pre>${escapeHtml(task.Description)}</pre></td></tr>`,
      )
      .join('');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page(
          'CRM sandbox: tasks',
          state.tasks.length
            ? `<table><thead><tr><th>Id</th><th>Subject</th><th>Date</th><th>Status</th><th>Related to</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>`
            : '<p>No task created yet.</p>',
        ),
      );
  });
};

type Soql = { object: string; fields: string[]; where: { field: string; values: string[] }[]; limit: number };

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;

/** The SOQL the toolkit sends: SELECT fields FROM object [WHERE f = 'v' | f IN ('a', 'b') [AND ...]] [LIMIT n]. */
export function parseSoql(text: string): Soql | { error: string } {
  const match = /^\s*SELECT\s+(.+?)\s+FROM\s+([A-Za-z0-9_]+)(?:\s+WHERE\s+(.+?))?(?:\s+LIMIT\s+(\d+))?\s*$/is.exec(
    text,
  );
  if (!match) return { error: 'unexpected token: the query is not SELECT ... FROM ...' };
  const fields = (match[1] ?? '').split(',').map((field) => field.trim());
  if (!fields.every((field) => IDENTIFIER.test(field)))
    return { error: `unexpected token in the field list: ${match[1]}` };
  const where: Soql['where'] = [];
  for (const condition of match[3] ? match[3].split(/\s+AND\s+/i) : []) {
    const equals = /^([A-Za-z0-9_]+)\s*=\s*'((?:[^'\\]|\\.)*)'$/s.exec(condition.trim());
    const within = /^([A-Za-z0-9_]+)\s+IN\s*\((.*)\)$/is.exec(condition.trim());
    if (equals) where.push({ field: equals[1] ?? '', values: [unescape(equals[2] ?? '')] });
    else if (within) {
      const values = [...(within[2] ?? '').matchAll(/'((?:[^'\\]|\\.)*)'/g)].map((value) => unescape(value[1] ?? ''));
      if (values.length === 0) return { error: `unexpected token: ${condition}` };
      where.push({ field: within[1] ?? '', values });
    } else return { error: `unexpected token: ${condition}` };
  }
  return { object: match[2] ?? '', fields, where, limit: match[4] ? Number(match[4]) : 50_000 };
}

const unescape = (value: string) => value.replace(/\\(.)/g, '$1');
