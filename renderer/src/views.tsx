// The top-level views: one entry per section of the app, in navigation order. A view renders for #/<id>/…;
// `navbar` (optional) renders in the left column for that view. Add a view by adding an entry here.
import {
  IconArrowsExchange,
  IconBell,
  IconBuildingStore,
  IconHistory,
  IconPlugConnected,
  IconSearch,
  IconServer2,
  IconSettings,
} from '@tabler/icons-react';
import type { ComponentType, ReactNode } from 'react';
import { ServersView } from './components/servers/ServersView';
import { Sidebar } from './components/servers/Sidebar';
import { lazyNamed } from './ui/lazy';

// The servers view is the first one shown, so it is part of the entry script; every other view is loaded when it is
// first opened (App wraps `main` in a Suspense boundary).
const CatalogView = lazyNamed(() => import('./components/catalog/CatalogView'), 'CatalogView');
const HistoryView = lazyNamed(() => import('./components/history/HistoryView'), 'HistoryView');
const ProtocolView = lazyNamed(() => import('./components/protocol/ProtocolView'), 'ProtocolView');
const BrowseView = lazyNamed(() => import('./components/registry/BrowseView'), 'BrowseView');
const EventsView = lazyNamed(() => import('./components/events/EventsView'), 'EventsView');
const GatewayView = lazyNamed(() => import('./components/gateway/GatewayView'), 'GatewayView');
const SettingsView = lazyNamed(() => import('./components/settings/SettingsView'), 'SettingsView');

/** One top-level section of the app. */
export interface ViewDef {
  /** The first fragment segment (#/<id>). */
  id: string;
  /** Navigation label. */
  label: string;
  /** Navigation icon. */
  icon: ComponentType<{ size?: number | string; stroke?: number; 'aria-hidden'?: boolean }>;
  /** The view's main content. */
  main: () => ReactNode;
  /** Left column content, when the view has one. */
  navbar?: () => ReactNode;
}

/** Every view, in navigation order. */
export const VIEWS: ViewDef[] = [
  { id: 'servers', label: 'Servers', icon: IconServer2, main: () => <ServersView />, navbar: () => <Sidebar /> },
  { id: 'catalog', label: 'Catalog', icon: IconSearch, main: () => <CatalogView /> },
  { id: 'history', label: 'History', icon: IconHistory, main: () => <HistoryView /> },
  { id: 'protocol', label: 'Protocol', icon: IconArrowsExchange, main: () => <ProtocolView /> },
  { id: 'browse', label: 'Browse', icon: IconBuildingStore, main: () => <BrowseView /> },
  { id: 'events', label: 'Events', icon: IconBell, main: () => <EventsView /> },
  { id: 'gateway', label: 'Gateway', icon: IconPlugConnected, main: () => <GatewayView /> },
  { id: 'settings', label: 'Settings', icon: IconSettings, main: () => <SettingsView /> },
];

/** The view for an id (the servers view for an unknown one). */
export function viewById(id: string): ViewDef {
  return VIEWS.find((v) => v.id === id) ?? (VIEWS[0] as ViewDef);
}
