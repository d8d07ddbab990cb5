import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Capability, SessionUser, WorkNotification } from '@ce/contract';
import type { Externals } from '../adapters/externals.js';
import type { WebexDeliveries } from '../adapters/webex-delivery.js';
import type { AppConfig } from '../config/config.js';
import type { ChangeSetTools } from './change-sets/handlers.js';
import type { BudgetWaits } from './budget-waits.js';
import type { CallAudit } from './call-audit.js';
import type { ChangeSetRepository } from './change-sets/repository.js';
import type { JobsAhead } from './jobs-ahead.js';
import type { Database, Db } from './database.js';
import type { ExclusiveLocks } from './exclusive-locks.js';
import type { Job } from './jobs.js';
import type { Metrics } from './metrics.js';
import type { JobQueue } from './queue.js';
import type { SealedTokens } from './sealed-tokens.js';
import type { SharedThrottle } from './shared-throttle.js';
import type { TimelineSource } from './timeline.js';

/**
 * What modules offer each other (and the tests, through `BuiltApp`), by name. Each module's `index.ts` adds
 * its own entries (`declare module '../../core/modules.js' { interface ModuleServices { usage: UsageService } }`),
 * so core names no module and a module reads another's service with its type.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by each module's index.ts
export interface ModuleServices {}

/** The services modules offered so far; a module reads those of the modules registered before it. */
export class ModuleServiceRegistry {
  private readonly offered: Partial<ModuleServices> = {};

  offer(module: string, services: Partial<ModuleServices>): void {
    const taken = Object.keys(services).filter((name) => name in this.offered);
    if (taken.length > 0) throw new Error(`Module ${module} offers ${taken.join(', ')}, offered already by another`);
    Object.assign(this.offered, services);
  }

  get<Name extends keyof ModuleServices>(name: Name): ModuleServices[Name] {
    const service = this.offered[name];
    if (service === undefined) throw new Error(`No module offered ${name} yet: its module comes later in app.ts`);
    return service;
  }
}

/**
 * A module whose work can end badly after it was requested (reports, change sets, backups). A caller hears of it
 * as its lists show it: a source with a `capability` (its tool's operations') only to a caller who may use it, a
 * personal API token's capabilities counted; one without keeps to what the caller may read itself (report kinds).
 */
export interface NotificationSource {
  capability?: Capability;
  problemsSince(user: SessionUser, since: Date, limit: number): Promise<WorkNotification[]>;
  activeCount(user: SessionUser): Promise<number>;
}

/** What modules add to one list, in the order they register (app.ts's order). */
export class Registry<T> {
  private readonly added: T[] = [];

  add(...items: T[]): void {
    this.added.push(...items);
  }

  /** Everything added so far; the list keeps growing while later modules register. */
  get items(): readonly T[] {
    return this.added;
  }
}

/** The modules' background jobs, and what each does once the workers have started (recovering orphans). */
export class JobRegistry extends Registry<Job> {
  readonly onStarted = new Registry<(embedded: boolean) => Promise<unknown>>();
}

/**
 * What a module registers with: the shared infrastructure, what the modules before it offered, and the
 * lists it adds to. Routes are mounted once every module has registered (after access control is in place).
 */
export interface ModuleContext extends Omit<Externals, 'sandbox'> {
  /** For the module's own hooks (`preClose`, `onClose`); routes go through `routes`. */
  app: FastifyInstance;
  logger: FastifyBaseLogger;
  config: AppConfig;
  /** The product's clock (tests fix it); the system clock when undefined. */
  clock?: () => Date;
  database: Database;
  db: Db;
  queue: JobQueue;
  /** The customer tokens held for jobs. */
  tokens: SealedTokens;
  /** Where the writing tools' runs (change sets) are kept: their run services read and start them there. */
  changeSets: ChangeSetRepository;
  metrics: Metrics;
  throttle: SharedThrottle;
  locks: ExclusiveLocks;
  /** Jobs ahead of queued ones at their organization's budget (job pages say it). */
  jobsAhead: JobsAhead;
  /** People's requests waiting for a customer's API budget, and the organizations' names they are told in. */
  budgetWaits: BudgetWaits;
  /** Audits the platform calls of the jobs a watch run starts, with the watch's id. */
  callAudit: CallAudit;
  /** Every Webex message the product sends from its jobs, once a key and retried (issue 56); null without Webex. */
  deliveries: WebexDeliveries | null;
  services: ModuleServiceRegistry;
  /** Mounts the module's route plugins: `routes.add((app) => app.register(plugin, options))`. */
  routes: Registry<(app: FastifyInstance) => PromiseLike<unknown>>;
  jobs: JobRegistry;
  /** What the notifications module polls: work that ended badly. */
  notificationSources: Registry<NotificationSource>;
  /** What a customer's page lists: each module's work for one organization. */
  timelineSources: Registry<TimelineSource>;
  /** The kinds of change set and the actions of the tools that write into a customer's account. */
  changeSetKinds: Registry<ChangeSetTools>;
}

/** A module of the server: it registers its routes, jobs and sources, and returns what it offers the others. */
export interface AppModule {
  name: string;
  register(context: ModuleContext): Promise<Partial<ModuleServices>>;
}
