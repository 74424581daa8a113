import type { StateCreator } from 'zustand';
import type { AppSlice } from './app-slice';
import type { AppsSlice } from './apps-slice';
import type { AuthSlice } from './auth-slice';
import type { CallsSlice } from './calls-slice';
import type { CatalogSlice } from './catalog-slice';
import type { EventsSlice } from './events-slice';
import type { GatewaySlice } from './gateway-slice';
import type { ResourcesSlice } from './resources-slice';
import type { ServersSlice } from './servers-slice';
import type { UiSlice } from './ui-slice';
import type { RegistrySlice } from './registry-slice';
import type { DoctorSlice } from './doctor-slice';
import type { ProtocolSlice } from './protocol-slice';
import type { SkillsSlice } from './skills-slice';

/** The whole store: one object made of slices. */
export type Store = AppSlice &
  ServersSlice &
  UiSlice &
  CatalogSlice &
  CallsSlice &
  AuthSlice &
  ResourcesSlice &
  ProtocolSlice &
  RegistrySlice &
  DoctorSlice &
  AppsSlice &
  EventsSlice &
  GatewaySlice &
  SkillsSlice;
/** A slice creator with access to the whole store. */
export type SliceCreator<T> = StateCreator<Store, [], [], T>;
