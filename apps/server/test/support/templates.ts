// Test data that the benches use too: nothing here may import vitest.

/** A bulk-tests template of a BGP test (it needs no agents), for runs whose tests do not matter. */
export const bgpTemplate = (testName: string, prefix = '203.0.113.0/24') => ({
  testName,
  testType: 'bgp' as const,
  interval: 300,
  url: '',
  domain: '',
  port: 80,
  dnsServers: '',
  prefix,
  agentNames: [],
  alertsEnabled: true,
  description: '',
});
