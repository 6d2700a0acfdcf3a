import '@fontsource/roboto/400.css';
import '@fontsource/roboto/500.css';
import '@fontsource/roboto/700.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import { i18nReady } from './i18n/index.js';
import { startTracing } from './lib/tracing/index.js';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// The page renders once the device's language is loaded (a few kilobytes, fetched at once).
void i18nReady.then(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  // After the first render: the SDK, when tracing is on, never delays the page.
  startTracing();
});
