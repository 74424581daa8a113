import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/App';
import { MantineRoot } from './ui/MantineRoot';
import './styles.css';
import './ui/ui.css';

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
