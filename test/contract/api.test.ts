import { apiPlatform } from '../helpers/api.js';
import { adapterContract } from './suite.js';

adapterContract({ name: 'api (the openai client against the gateway\'s /v1/chat/completions, streamed)', setup: apiPlatform });
