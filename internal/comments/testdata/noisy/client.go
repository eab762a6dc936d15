package weather

// Import the required packages
import (
	"encoding/json"
	"net/http"
)

func Fetch(city string) (*Report, error) {
	// Build the URL for the API request
	url := "https://api.example.com/v1/weather?city=" + city
	// Make the HTTP request
	resp, err := http.Get(url)
	// Check for errors
	if err != nil {
		return nil, err
	}
	// Close the body when done
	defer resp.Body.Close()
	// Now uses a decoder instead of ReadAll
	var r Report
	// Decode the response
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return nil, err
	}
	// Return the report
	return &r, nil
}
