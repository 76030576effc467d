import Docker from 'dockerode';
import { SANDBOX_LABEL } from '../../src/core/sandbox/container-spec.js';

/** The engine's containers that carry a service instance's label, stopped ones included. */
export function labelledContainers(instance: string, socketPath = '/var/run/docker.sock'): Promise<Docker.ContainerInfo[]> {
  return new Docker({ socketPath }).listContainers({ all: true, filters: { label: [`${SANDBOX_LABEL}=${instance}`] } });
}
