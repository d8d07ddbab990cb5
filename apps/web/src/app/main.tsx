import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createQueryClient } from '../lib/query-client';
import { preloadRoute } from './preload';
import { Providers } from './providers';
import { createRouter } from './router';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

preloadRoute(window.location.pathname);
const router = createRouter();
createRoot(root).render(
  <StrictMode>
    <Providers queryClient={createQueryClient()} navigate={(to) => void router.navigate(to)}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
