import { useEffect, useState } from 'react';
import type { MeasurementSystem } from '../../site/types.ts';
import { $measurement, initMeasurement } from './measurement.ts';

/**
 * The visitor's measurement system in an island: first what the server rendered (so hydration
 * matches), then the saved choice, following every later change on the page.
 */
export function useMeasurement(rendered: MeasurementSystem): MeasurementSystem {
  const [system, setSystem] = useState<MeasurementSystem>(rendered);
  useEffect(() => {
    setSystem(initMeasurement(rendered));
    return $measurement.listen(setSystem);
  }, [rendered]);
  return system;
}
