import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createQueryClient } from '../lib/query-client';
import { seedFromPage } from '../lib/session';
import { preloadRoute } from './preload';
import { Providers } from './providers';
import { createRouter } from './router';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

preloadRoute(window.location.pathname);
const queryClient = createQueryClient();
seedFromPage(queryClient);
const router = createRouter();
// The first render is a transition: it yields to the browser every few milliseconds instead of holding it until
// done. Until it commits, the page's own "Loading" screen (index.html) shows.
startTransition(() =>
  createRoot(root).render(
    <StrictMode>
      <Providers queryClient={queryClient} navigate={(to) => void router.navigate(to)}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  ),
);
