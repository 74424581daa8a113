import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/shell/App';
import { MantineRoot } from './ui/MantineRoot';
import { shareStyleNonce } from './ui/style-nonce';
import './ui/ui.css';

shareStyleNonce();
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
