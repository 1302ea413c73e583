// Each module's route cases register themselves on import; add new modules' case files here.
import './foundation-cases.js';
import './dlp-cases.js';
import './detection-cases.js';
import './hallucination-cases.js';
import './events-cases.js';
import './gateway-cases.js';
import './gateway-history-cases.js';
import './reports-cases.js';
import './endpoint-cases.js';
import './dashboard-cases.js';
import './shadow-ai-cases.js';
import './netproxy-cases.js';
import './proofs-cases.js';
