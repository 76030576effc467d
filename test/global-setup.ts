import { buildService } from './support/build-service.js';

/** Tests that start the service as a process run the built one (dist/), as `npm start` does. */
export default buildService;
