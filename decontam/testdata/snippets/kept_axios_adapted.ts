import axios from 'axios';

export async function getQuote(symbol: string): Promise<number> {
  const options = {
    method: 'GET',
    url: `https://stock-quotes.p.rapidapi.com/quote/${symbol}`,
    headers: {
      'x-rapidapi-key': process.env.RAPIDAPI_KEY ?? '',
      'x-rapidapi-host': 'stock-quotes.p.rapidapi.com'
    }
  };
  try {
    const response = await axios.request(options);
    return response.data.price;
  } catch (error) {
    console.error(error);
    throw error;
  }
}
