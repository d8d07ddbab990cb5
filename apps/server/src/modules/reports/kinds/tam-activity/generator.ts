import { tamActivityOptionsSchema } from '@ce/contract';
import { Markdown, mdLines, mdSafe } from '../../../../report-kit/markdown.js';
import { reportFiles, type ReportGenerator } from '../../report-generator.js';
import { activityHtml, activityPdf, activityWorkbook } from './render.js';
import { summarise, toEvent, type ActivityEvent, type Tally } from './rules.js';

/**
 * The TAM activity report: the organization's audit log (`/audit-user-events` across every account group
 * the token may see, followed page by page) over the last 7, 14 or 21 days, kept to the chosen account
 * groups when some were chosen, summarised per user, account group, event type and day.
 */
export const tamActivityGenerator: ReportGenerator = async (context) => {
  const { daysRange } = tamActivityOptionsSchema.parse(context.options);
  const groups = await context.platform.accountGroups.list(context.signal);
  const inOrganization = groups.filter(
    (group) => group.orgId === context.organization.id || group.organizationName === context.organization.name,
  );
  const names = new Map(inOrganization.map((group) => [group.aid, group.accountGroupName]));
  const wanted = new Set(
    (context.accountGroups.length ? context.accountGroups : inOrganization).map((group) => group.aid),
  );
  await context.progress(1, 3);
  const events: ActivityEvent[] = [];
  for await (const event of context.platform.auditUserEvents.list({
    aid: inOrganization[0]?.aid,
    range: { window: `${daysRange}d` },
    useAllPermittedAids: true,
    signal: context.signal,
  }))
    if (wanted.has(event.aid ?? '')) events.push(toEvent(event, (aid) => names.get(aid) ?? aid));
  events.sort((a, b) => b.date.localeCompare(a.date));
  await context.progress(2, 3);
  const summary = summarise(events, context.now, daysRange);
  const files = {
    xlsx: await activityWorkbook(context.organization.name, summary, events),
    pdf: await activityPdf(context.organization.name, summary, events),
    html: activityHtml(context.organization.name, summary, events),
  };
  await context.progress(3, 3);
  const top = (tallies: Tally[]) =>
    tallies
      .slice(0, 3)
      .map((entry) => mdSafe`${entry.key} (${entry.count})`.text)
      .join(', ');
  return {
    summaryMarkdown: mdLines([
      mdSafe`**TAM activity report** for **${context.organization.name}**, last ${daysRange} days: ${summary.total} event(s) by ${summary.byUser.length} user(s) in ${summary.byGroup.length} account group(s).`,
      summary.total > 0 &&
        mdSafe`Busiest users: ${new Markdown(top(summary.byUser))}. Busiest groups: ${new Markdown(top(summary.byGroup))}.`,
    ]).text,
    artifacts: reportFiles(context, 'tam-activity', files),
  };
};
