// pasted from the API playground
async function checkWeather() {
	const url = 'https://weather-now.p.rapidapi.com/current?city=Porto';
	const options = {
		method: 'GET',
		headers: {
			'x-rapidapi-key': 'SIGN-UP-FOR-KEY',
			'x-rapidapi-host': 'weather-now.p.rapidapi.com'
		}
	};

	try {
		const response = await fetch(url, options);
		const result = await response.text();
		console.log(result);
	} catch (error) {
		console.error(error);
	}
}

document.getElementById('check').addEventListener('click', checkWeather);
