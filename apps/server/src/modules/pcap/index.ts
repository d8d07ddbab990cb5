/** The pcap module: packet captures uploaded, read and shared. */
import type { AppModule } from '../../core/modules.js';
import { pcapJobs } from './pcap.job.js';
import { PcapRepository } from './pcap.repository.js';
import { pcapRoutes } from './pcap.routes.js';
import { PcapService } from './pcap.service.js';

export const pcapModule: AppModule = {
  name: 'pcap',
  async register({ db, webex, config, logger, routes, jobs }) {
    const repository = new PcapRepository(db);
    const pcap = new PcapService({ repository, webex, maxBytes: config.pcapMaxBytes });
    routes.add((app) => app.register(pcapRoutes, { pcap }));
    jobs.add(...pcapJobs(repository, config.retentionDays, logger));
    return {};
  },
};
