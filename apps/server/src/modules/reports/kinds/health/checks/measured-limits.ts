/**
 * The thresholds of the measured checks (decision 0037 says where each comes from). Boundaries are strict as in
 * decision 0014: a value exactly at a threshold is on the passing side.
 */
export const MEASURED_LIMITS = {
  /** Results are read over this many days (the "availability per test over 7 days"). */
  resultDays: 7,
  /** A round is lost above this packet loss, in percent (the usual SLA line for a network path, 2%). */
  maxLossPercent: 2,
  /**
   * A round is too slow above this average latency, in ms: ITU-T G.114 puts one-way delay acceptable for interactive
   * use at 150 ms, so a round trip above 300 ms is degraded.
   */
  maxLatencyMs: 300,
  /** A test is below target when fewer than this share of its rounds were good (99%: 1 h 41 min lost a week). */
  availabilityTarget: 0.99,
  /** Below this share a test fails the check instead of warning (95%: more than 8 hours lost a week). */
  availabilityFail: 0.95,
  /** The report lists the worst tests first; its summary names this many. */
  worstTests: 5,
  /** An agent that made no round for this long is offline for the checks (the platform's default rule: 30 min). */
  agentOfflineMinutes: 30,
  /** A rule is noisy when it triggered more than this many times in 7 days (three a day)... */
  noisyTriggersPerWeek: 21,
  /** ...and more than this many times per 100 rounds its tests made (weighed by how often they run). */
  noisyTriggersPer100Rounds: 1,
  /** A rule flaps when this many of its alerts in 7 days cleared within `flappingClearMinutes` of triggering. */
  flappingCycles: 5,
  flappingClearMinutes: 15,
  /** A rule never fired when no alert of it started in this many days (the alert checks' month, decision 0014). */
  silentDays: 30,
  /** Rules whose alerts took longer than this to clear, as the median over the silent days' window (a day). */
  timeToClearHours: 24,
  /** Endpoint agents in use below this share of the licensed ones warn (licences paid for and not deployed). */
  endpointInUseShare: 0.5,
  /** The units check names this many largest consumers (tests and account groups). */
  largestConsumers: 5,
} as const;
