import { timelineLocatorField } from '../../helpers/fields';

/** The timeline an operation acts on (Delete, Travel To, Check for Paradoxes, Monitor Anomalies). */
export const timelineField = timelineLocatorField();
