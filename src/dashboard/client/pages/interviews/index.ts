/** The interview pages of the dashboard (issue 16); imported by the client's main for these registrations. */
import { page } from '../../kit/router.js';
// esbuild bundles the page's style sheet into the dashboard's one style sheet (src/dashboard/bundle.ts).
import './interviews.css';
import { interviewerPage } from './interviewer.js';
import { interviewersPage } from './interviewers.js';
import { participantPage } from './participant.js';
import { participantsPage } from './participants.js';
import { rolePage } from './role.js';
import { rolesPage } from './roles.js';
import { sessionPage } from './session.js';
import { sessionsPage } from './sessions.js';

page('/roles', rolesPage, { title: 'Roles' });
page('/roles/:id', rolePage, { title: 'Role' });
page('/interviewers', interviewersPage, { title: 'Interviewers' });
page('/interviewers/:id', interviewerPage, { title: 'Interviewer' });
page('/participants', participantsPage, { title: 'Participants' });
page('/participants/:id', participantPage, { title: 'Participant' });
page('/sessions', sessionsPage, { title: 'Sessions' });
page('/sessions/:id', sessionPage, { title: 'Session' });
