import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/shell/App';
import { useStore } from './store';
import { MantineRoot } from './ui/MantineRoot';
import { shareStyleNonce } from './ui/style-nonce';
import './ui/ui.css';

shareStyleNonce();
// Connects to the core and wires the store to its events once, before anything renders that reads them.
void useStore.getState().start();
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <MantineRoot>
        <App />
      </MantineRoot>
    </StrictMode>,
  );
}
