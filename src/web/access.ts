/**
 * What a route requires of its caller. The web kit only carries it to the platform's gate (as the
 * route's `config.access`) and to the OpenAPI document; the platform declares its fields (auth,
 * scope, plan, meter) by augmenting this interface (src/platform/access.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RouteAccess {}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}
