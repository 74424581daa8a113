import { create } from 'zustand';
import { createAppSlice } from './app-slice';
import { createAppsSlice } from './apps-slice';
import { createAuthSlice } from './auth-slice';
import { createCallsSlice } from './calls-slice';
import { createCatalogSlice } from './catalog-slice';
import { createEventsSlice } from './events-slice';
import { createResourcesSlice } from './resources-slice';
import { createGatewaySlice } from './gateway-slice';
import { createServersSlice } from './servers-slice';
import type { Store } from './types';
import { createUiSlice } from './ui-slice';
import { createRegistrySlice } from './registry-slice';
import { createDoctorSlice } from './doctor-slice';
import { createProtocolSlice } from './protocol-slice';
import { createSkillsSlice } from './skills-slice';

/** The renderer's single store. */
export const useStore = create<Store>()((...a) => ({
  ...createAppSlice(...a),
  ...createServersSlice(...a),
  ...createUiSlice(...a),
  ...createCatalogSlice(...a),
  ...createCallsSlice(...a),
  ...createAuthSlice(...a),
  ...createResourcesSlice(...a),
  ...createRegistrySlice(...a),
  ...createDoctorSlice(...a),
  ...createAppsSlice(...a),
  ...createEventsSlice(...a),
  ...createGatewaySlice(...a),
  ...createProtocolSlice(...a),
  ...createSkillsSlice(...a),
}));

const initialState = useStore.getState();

/** Unsubscribes the store from the core and puts every slice back to its initial state (tests start from here). */
export function resetStore(): void {
  useStore.getState().unwireCore();
  useStore.setState(initialState, true);
}

export type { Store };
