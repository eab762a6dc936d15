-- Create the users table
CREATE TABLE users (
    -- The primary key
    id bigserial PRIMARY KEY,
    -- The email column, changed from varchar(100) to text
    email text NOT NULL UNIQUE,
    -- When the user was created
    created_at timestamptz NOT NULL DEFAULT now()
);
-- Create an index on the email
CREATE INDEX users_email ON users (email);
