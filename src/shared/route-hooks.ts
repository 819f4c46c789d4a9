import type { RouteOptions } from 'fastify';

type LifecycleHook = 'onRequest' | 'preValidation' | 'preHandler' | 'onSend' | 'onResponse';

/**
 * Adds a hook to one route, from an `onRoute` hook, after the route's own hooks of that kind. A plugin that
 * applies only to routes with some config attaches its hooks to those routes: the other routes never call
 * them, and the hook can read the config it was attached for instead of looking it up per request.
 * (A new array every time: Fastify copies a GET route's options for its HEAD route.)
 */
export function addRouteHook(route: RouteOptions, kind: LifecycleHook, hook: (...args: never[]) => unknown): void {
  const existing = (route as unknown as Record<LifecycleHook, unknown>)[kind];
  (route as unknown as Record<LifecycleHook, unknown[]>)[kind] = [...[existing ?? []].flat(), hook];
}
