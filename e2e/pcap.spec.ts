import { expect, test, type Page } from './fixtures.js';
import { knownFrames, pcapFile, pcapngFile } from '../apps/server/test/support/capture-builder';
import { expectNoAxeViolations, signIn } from './helpers';

const frames = knownFrames();
const dataBytes = frames.reduce((sum, frame) => sum + frame.bytes.length, 0);

async function analyze(page: Page, name: string, buffer: Buffer) {
  await page.getByLabel('Capture file').setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
  await page.getByRole('button', { name: 'Analyze capture' }).click();
  const summary = page.getByRole('article', { name: 'Capture summary' });
  await expect(summary.getByRole('heading', { name })).toBeVisible();
  return summary;
}

test('a pcap and a pcapng made here are summarised exactly, kept in the history and shared in Webex', async ({
  page,
}) => {
  await signIn(page, 'tam@demo.local', undefined, '/home/support');
  for (const [name, file, format] of [
    ['known.pcap', pcapFile(frames), 'pcap 2.4'],
    ['known.pcapng', pcapngFile(frames), 'pcapng 1.0'],
  ] as const) {
    const summary = await analyze(page, name, file);
    const overview = (label: string) => summary.getByTestId(`overview-${label}`);
    await expect(overview('Format')).toHaveText(format);
    await expect(overview('Link type')).toHaveText('Ethernet (1)');
    await expect(overview('Packets')).toHaveText('10');
    await expect(overview('Data size')).toHaveText(`${dataBytes.toLocaleString('en-US')} bytes`);
    await expect(overview('First packet')).toHaveText('2026-11-23T09:00:00.000Z');
    await expect(overview('Last packet')).toHaveText('2026-11-23T09:00:02.000Z');
    await expect(overview('Duration')).toHaveText('2 s');
    await expect(overview('Average packet rate')).toHaveText('5 packets/s');
    await expect(overview('TCP resets')).toHaveText('1');
    await expect(overview('Probable retransmissions')).toHaveText('1');
    await expect(overview('SHA-256')).toHaveText(/^[0-9a-f]{64}$/);
    for (const [protocol, count] of [
      ['ipv4', 9],
      ['ipv6', 1],
      ['tcp', 6],
      ['udp', 3],
      ['icmp', 1],
      ['dns', 2],
      ['vlan', 1],
      ['tlsByParse', 2],
    ] as const)
      await expect(summary.getByTestId(`protocol-${protocol}`)).toHaveText(`${protocol}: ${count}`);
    await expect(summary.getByRole('region', { name: 'TLS server names' })).toContainText('api.thousandeyes.com (2)');
    await expect(summary.getByRole('table', { name: 'DNS' })).toContainText('A 192.0.2.10');
    await expect(summary.getByRole('table', { name: 'Top conversations' }).getByRole('row').nth(1)).toContainText(
      '10.0.0.5:50000',
    );
    await expect(summary.getByRole('img', { name: 'Packets and bytes per second' })).toBeVisible();
  }

  const summary = page.getByRole('article', { name: 'Capture summary' });
  await expectNoAxeViolations(page);
  await summary.getByLabel('Case number').fill('SR-778899');
  await summary.getByRole('button', { name: 'Send in Webex' }).click();
  await expect(page.getByText('Summary and capture sent in Webex').first()).toBeVisible();
  await expect(summary).toContainText('Sent: SR-778899 to tam@demo.local');
  const history = page.getByRole('table', { name: 'Captures kept' });
  await expect(history).toContainText('known.pcap');
  await expect(history).toContainText('known.pcapng');
});

test('a damaged capture is summarised up to where it breaks, and a file that is no capture is refused', async ({
  page,
}) => {
  await signIn(page, 'tam@demo.local', undefined, '/home/support');
  const file = pcapFile(frames);
  const summary = await analyze(page, 'cut.pcap', file.subarray(0, file.length - 10));
  await expect(summary.getByTestId('overview-Packets')).toHaveText('9');
  await expect(summary.getByRole('alert').or(summary.getByRole('status')).first()).toContainText(
    'The file ends in the middle of a packet record at byte',
  );
  await page
    .getByLabel('Capture file')
    .setInputFiles({ name: 'notes.pcap', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await page.getByRole('button', { name: 'Analyze capture' }).click();
  await expect(
    page.getByText('This is not a packet capture: the file starts with 0x68656c6c, not a pcap or pcapng signature.'),
  ).toBeVisible();
});
