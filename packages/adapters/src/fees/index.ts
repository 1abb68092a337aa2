export { createFeeOracle, type FeeOracleConfig } from './fee-oracle.js';
