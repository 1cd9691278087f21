import { describe, expect, it } from 'vitest'
import { currentStep, type ForecastStep } from './compact-forecast.js'

const step = (time: string): ForecastStep => ({
  time,
  temperature_c: null,
  humidity_pct: null,
  wind_speed_ms: null,
  wind_direction_deg: null,
  pressure_hpa: null,
  cloud_cover_pct: null,
  precipitation_mm: null,
  precipitation_period_hours: null,
  symbol: null,
  summary: null,
})

describe('currentStep', () => {
  const steps = [step('2026-02-10T08:00:00Z'), step('2026-02-10T09:00:00Z'), step('2026-02-10T15:00:00Z')]

  it('takes the last step that has started', () => {
    expect(currentStep(steps, Date.parse('2026-02-10T08:59:59Z'))?.time).toBe('2026-02-10T08:00:00Z')
    expect(currentStep(steps, Date.parse('2026-02-10T12:00:00Z'))?.time).toBe('2026-02-10T09:00:00Z')
  })

  it('takes the first step when the forecast starts after now, and nothing from an empty forecast', () => {
    expect(currentStep(steps, Date.parse('2026-02-10T07:30:00Z'))?.time).toBe('2026-02-10T08:00:00Z')
    expect(currentStep([], Date.now())).toBeUndefined()
  })
})
