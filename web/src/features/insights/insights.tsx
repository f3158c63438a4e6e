// /genie/insights: three charts of the user's mail, each with the figures behind it (a table) and a
// sentence saying what it shows, for a screen reader and at 375 px. Chart.js loads with the first chart
// (bar-chart.tsx), never with another screen. docs/decisions/083-insights.md.
import type { ChartConfiguration } from 'chart.js';
import { type ReactNode, useMemo } from 'react';
import { Link } from 'react-router';
import type { InsightsResponse, InsightsTopSender, InsightsWeek } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { ErrorState } from '../../components/error-state';
import { Loading } from '../../components/loading';
import { PageHeader } from '../../components/page-header';
import { useEmailAccounts } from '../accounts';
import { useInsights } from './api/insights';
import { BarChart } from './bar-chart';
import { QuieterItem } from './quieter-item';
import {
  formatCount,
  formatRate,
  formatWeek,
  quieterSummary,
  topSendersSummary,
  weeklySummary,
  weekTotal,
} from './summaries';
import './insights.css';

/** What every chart here shares: the container's size, no animation (reduced motion, steady screenshots). */
const BASE_OPTIONS = { responsive: true, maintainAspectRatio: false, animation: false } as const;

const COLORS = { toReview: '#0d6efd', kept: '#20c997', unsubscribed: '#fd7e14', since: '#dc3545' };
/** Senders drawn in the "Quieter since" chart; the list below it has them all. */
const QUIETER_CHART = 10;

const shortName = (s: { name: string; address: string }) => {
  const name = s.name || s.address;
  return name.length > 22 ? `${name.slice(0, 21)}…` : name;
};

/** No mailbox yet: nothing to chart, so the way to add one instead of empty axes. */
function NoMailbox() {
  return (
    <section className="card mb-4" aria-label="No mailbox yet">
      <div className="card-body">
        <h2 className="h5 card-title">Add a mailbox to see your insights</h2>
        <p>
          Insights charts the mail your subscriptions send you: how much arrives each week, who sends the
          most, and how much quieter your inbox gets after you unsubscribe. Connect a mailbox and the charts
          fill in after its first scan.
        </p>
        <Link to={SCREENS.addAccount} className="btn btn-primary">
          Add a mailbox
        </Link>
      </div>
    </section>
  );
}

export default function Insights() {
  const insights = useInsights();
  const { accounts } = useEmailAccounts();
  const data = insights.data;
  const noMailbox = accounts !== null && accounts.length === 0;
  return (
    <section className="insights">
      <PageHeader title="Insights" />
      <p className="text-muted">
        How your inbox changes as you decide about your subscriptions, from the dates and read flags of your
        mail (never its content).
      </p>
      {insights.isError && !data && (
        <ErrorState message="Failed to fetch your insights..." onRetry={() => void insights.refetch()} />
      )}
      {insights.isPending && !noMailbox && <Loading label="Loading insights…" />}
      {noMailbox && <NoMailbox />}
      {data && !noMailbox && (
        <>
          <WeeklyCard weeks={data.weeks} undated={data.undatedMessages} />
          <TopSendersCard senders={data.topSenders} />
          <QuieterCard quieter={data.quieter} />
        </>
      )}
    </section>
  );
}

function Card({ title, summary, children }: { title: string; summary: string; children: ReactNode }) {
  return (
    <section className="card mb-4" aria-label={title}>
      <div className="card-body">
        <h2 className="h5 card-title">{title}</h2>
        <p className="insights-summary">{summary}</p>
        {children}
      </div>
    </section>
  );
}

/** A chart's figures as a table, under a native disclosure (closed at first, read by screen readers). */
function Figures({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: string[];
  children: ReactNode;
}) {
  return (
    <details className="mt-3">
      <summary>Show the figures</summary>
      <div className="table-responsive mt-2">
        <table className="table table-sm insights-table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </div>
    </details>
  );
}

function WeeklyCard({ weeks, undated }: { weeks: InsightsWeek[]; undated: number }) {
  const summary = weeklySummary(weeks, undated);
  const config = useMemo<ChartConfiguration<'bar'>>(
    () => ({
      type: 'bar',
      data: {
        labels: weeks.map((w) => formatWeek(w.start)),
        datasets: [
          { label: 'To review', data: weeks.map((w) => w.toReview), backgroundColor: COLORS.toReview },
          { label: 'Kept', data: weeks.map((w) => w.kept), backgroundColor: COLORS.kept },
          {
            label: 'Unsubscribed or blocked',
            data: weeks.map((w) => w.unsubscribed),
            backgroundColor: COLORS.unsubscribed,
          },
        ],
      },
      options: {
        ...BASE_OPTIONS,
        scales: {
          x: { stacked: true, ticks: { maxRotation: 0, autoSkipPadding: 8 } },
          y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } },
        },
        plugins: { legend: { position: 'bottom' } },
      },
    }),
    [weeks],
  );
  return (
    <Card title="Mail a week" summary={summary}>
      <BarChart config={config} label={summary} height={280} />
      <Figures
        caption="Messages from subscriptions each week, by the list their sender is in now"
        columns={['Week of', 'To review', 'Kept', 'Unsubscribed or blocked', 'All']}
      >
        {weeks.map((w) => (
          <tr key={w.start}>
            <th scope="row">{formatWeek(w.start)}</th>
            <td>{formatCount(w.toReview)}</td>
            <td>{formatCount(w.kept)}</td>
            <td>{formatCount(w.unsubscribed)}</td>
            <td>{formatCount(weekTotal(w))}</td>
          </tr>
        ))}
      </Figures>
    </Card>
  );
}

function TopSendersCard({ senders }: { senders: InsightsTopSender[] }) {
  const summary = topSendersSummary(senders);
  const config = useMemo<ChartConfiguration<'bar'>>(
    () => ({
      type: 'bar',
      data: {
        labels: senders.map(shortName),
        datasets: [
          {
            label: 'Mail a month',
            data: senders.map((s) => s.messagesPerMonth),
            // Mail the user rarely reads stands out.
            backgroundColor: senders.map((s) =>
              s.readRate !== null && s.readRate < 0.2 ? COLORS.unsubscribed : COLORS.toReview,
            ),
          },
        ],
      },
      options: {
        indexAxis: 'y',
        ...BASE_OPTIONS,
        scales: { x: { beginAtZero: true } },
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              afterLabel: (item) => `Read: ${formatRate(senders[item.dataIndex]?.readRate ?? null)}`,
            },
          },
        },
      },
    }),
    [senders],
  );
  return (
    <Card title="Most mail a month" summary={summary}>
      {senders.length > 0 && (
        <>
          <BarChart config={config} label={summary} height={Math.max(160, senders.length * 30 + 40)} />
          <p className="small text-muted mb-0">Orange bars: senders you read less than a fifth of.</p>
          <Figures
            caption="Senders with the most mail a month (the last 90 days), with how much of it you read"
            columns={['Sender', 'Mail a month', 'Read']}
          >
            {senders.map((s) => (
              <tr key={s.id}>
                <th scope="row" className="text-break">
                  {s.name || s.address}
                  <div className="small text-muted fw-normal">{s.address}</div>
                </th>
                <td>{formatCount(s.messagesPerMonth)}</td>
                <td>{formatRate(s.readRate)}</td>
              </tr>
            ))}
          </Figures>
        </>
      )}
    </Card>
  );
}

function QuieterCard({ quieter }: { quieter: InsightsResponse['quieter'] }) {
  const summary = quieterSummary(quieter);
  // Only senders whose mail since is known are drawn: a bar of 0 the day after an unsubscribe would claim
  // what nobody can know yet (the list below says when it will be).
  const drawn = useMemo(
    () => quieter.senders.filter((s) => s.perMonthSince !== null).slice(0, QUIETER_CHART),
    [quieter.senders],
  );
  const config = useMemo<ChartConfiguration<'bar'>>(
    () => ({
      type: 'bar',
      data: {
        labels: drawn.map(shortName),
        datasets: [
          {
            label: 'Before, a month',
            data: drawn.map((s) => s.perMonthBefore),
            backgroundColor: COLORS.unsubscribed,
          },
          {
            label: 'Since, a month',
            data: drawn.map((s) => s.perMonthSince ?? 0),
            backgroundColor: COLORS.since,
          },
        ],
      },
      options: {
        indexAxis: 'y',
        ...BASE_OPTIONS,
        scales: { x: { beginAtZero: true } },
        plugins: { legend: { position: 'bottom' } },
      },
    }),
    [drawn],
  );
  return (
    <Card title="Quieter since" summary={summary}>
      {quieter.senders.length > 0 && (
        <>
          {drawn.length > 0 && (
            <BarChart config={config} label={summary} height={Math.max(180, drawn.length * 40 + 60)} />
          )}
          <h3 className="h6 mt-3">
            {quieter.total > quieter.senders.length
              ? `${quieter.senders.length} of ${quieter.total} senders`
              : 'Every sender'}
          </h3>
          <ul className="list-group quieter-list">
            {quieter.senders.map((s) => (
              <QuieterItem key={s.id} sender={s} />
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
