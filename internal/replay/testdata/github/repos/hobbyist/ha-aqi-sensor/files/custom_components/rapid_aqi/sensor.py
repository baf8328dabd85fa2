"""Sensor platform for rapid_aqi."""
from datetime import timedelta

from homeassistant.components.sensor import SensorDeviceClass, SensorEntity
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.helpers.update_coordinator import CoordinatorEntity, DataUpdateCoordinator

from .api import AqiApiClient
from .const import CONF_API_KEY, CONF_CITY, DOMAIN

SCAN_INTERVAL = timedelta(minutes=30)


async def async_setup_entry(hass, entry, async_add_entities):
    client = AqiApiClient(async_get_clientsession(hass), entry.data[CONF_API_KEY])
    city = entry.data.get(CONF_CITY)

    async def _update():
        if city:
            return await client.async_get_by_city(city)
        return await client.async_get_by_location(hass.config.latitude, hass.config.longitude)

    coordinator = DataUpdateCoordinator(hass, hass.data[DOMAIN]["logger"], name=DOMAIN,
                                        update_method=_update, update_interval=SCAN_INTERVAL)
    await coordinator.async_config_entry_first_refresh()
    async_add_entities([AqiSensor(coordinator, city or "home")])


class AqiSensor(CoordinatorEntity, SensorEntity):
    _attr_device_class = SensorDeviceClass.AQI

    def __init__(self, coordinator, name):
        super().__init__(coordinator)
        self._attr_name = f"AQI {name}"
        self._attr_unique_id = f"rapid_aqi_{name}"

    @property
    def native_value(self):
        return self.coordinator.data.get("aqi")
