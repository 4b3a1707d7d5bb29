import type { ComponentType } from 'react';

/** One view of the console: its path under /console, and its place in the navigation when it has one. */
export interface RouteDef {
  path: string;
  component: ComponentType;
  /** The navigation's label; views without one are reached from another (a detail page). */
  nav?: string;
  /** Only for sandbox credentials (the sandbox tools). */
  sandboxOnly?: boolean;
}
