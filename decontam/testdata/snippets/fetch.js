const url = 'https://weather-now.p.rapidapi.com/current?city=Lisbon&units=metric';
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
