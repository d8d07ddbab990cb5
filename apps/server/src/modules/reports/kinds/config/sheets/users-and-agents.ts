import { date, rowsOf, type ConfigSheet } from './sheet.js';

export const usersSheet: ConfigSheet = {
  name: 'Users and Roles',
  columns: [
    { header: 'Account group', width: 30 },
    { header: 'User id', width: 12 },
    { header: 'Name', width: 26 },
    { header: 'Email', width: 34 },
    { header: 'Roles', width: 30 },
    { header: 'Last sign-in', width: 18 },
    { header: 'Registered', width: 18 },
  ],
  write(writer, { groups }) {
    rowsOf(
      writer,
      groups,
      (group) => group.users,
      (group, user) => [
        group.accountGroupName,
        user.uid,
        user.name ?? '',
        user.email,
        (user.roles ?? []).map((role) => role.name).join(', '),
        date(user.lastLogin),
        date(user.dateRegistered),
      ],
    );
  },
};

export const agentsSheet: ConfigSheet = {
  name: 'Cloud and Enterprise Agents',
  columns: [
    { header: 'Account group', width: 30 },
    { header: 'Agent id', width: 10 },
    { header: 'Agent', width: 28 },
    { header: 'Type', width: 12 },
    { header: 'Location', width: 24 },
    { header: 'Country', width: 8 },
    { header: 'State', width: 10 },
    { header: 'Enabled', width: 8 },
    { header: 'IP addresses', width: 20 },
    { header: 'Public IP addresses', width: 20 },
    { header: 'Last seen', width: 18 },
    { header: 'Tests in this group', width: 10 },
  ],
  write(writer, { groups }) {
    rowsOf(
      writer,
      groups,
      (group) => group.agents,
      (group, agent) => {
        const testsHere = group.tests.ok
          ? new Set(group.tests.value.map((test) => test.test.testId))
          : new Set<string>();
        return [
          group.accountGroupName,
          agent.agentId,
          agent.agentName,
          agent.agentType,
          agent.location ?? '',
          agent.countryId ?? '',
          agent.agentState ?? '',
          agent.enabled !== false,
          (agent.ipAddresses ?? []).join(', '),
          (agent.publicIpAddresses ?? []).join(', '),
          date(agent.lastSeen),
          (agent.testIds ?? []).filter((id) => testsHere.has(id)).length,
        ];
      },
    );
  },
};
