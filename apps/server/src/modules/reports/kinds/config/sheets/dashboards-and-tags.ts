import { rowsOf, type ConfigSheet } from './sheet.js';

export const dashboardsSheet: ConfigSheet = {
  name: 'Dashboards and Widgets',
  columns: [
    { header: 'Account group', width: 30 },
    { header: 'Dashboard id', width: 26 },
    { header: 'Dashboard', width: 30 },
    { header: 'Widget id', width: 12 },
    { header: 'Widget type', width: 20 },
    { header: 'Widget', width: 30 },
    { header: 'Data source', width: 24 },
    { header: 'Metric', width: 24 },
  ],
  write(writer, { groups }) {
    rowsOf(
      writer,
      groups,
      (group) => group.dashboards,
      (group, board) => {
        const widgets = board.widgets ?? [];
        if (!widgets.length)
          return [group.accountGroupName, board.dashboardId, board.title, null, null, null, null, null];
        return widgets.map((widget) => {
          return [
            group.accountGroupName,
            board.dashboardId,
            board.title,
            widget.id ?? null,
            widget.type,
            widget.title ?? '',
            String(widget.dataSource ?? ''),
            String(widget.metric ?? ''),
          ];
        });
      },
    );
  },
};

export const tagsSheet: ConfigSheet = {
  name: 'Tags',
  columns: [
    { header: 'Account group', width: 30 },
    { header: 'Tag id', width: 38 },
    { header: 'Key', width: 20 },
    { header: 'Value', width: 20 },
    { header: 'Object type', width: 14 },
    { header: 'Assigned to', width: 10 },
  ],
  write(writer, { groups }) {
    rowsOf(
      writer,
      groups,
      (group) => group.tags,
      (group, tag) => [
        group.accountGroupName,
        tag.id,
        tag.key ?? '',
        tag.value ?? '',
        tag.objectType ?? '',
        tag.assignments?.length ?? 0,
      ],
    );
  },
};
